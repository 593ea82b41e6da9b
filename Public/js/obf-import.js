// The board import page: while the upload is answered (pictures and sounds are converted on the server,
// and a set of many boards can take minutes), ask the server how far it is and say so. The form is sent
// with fetch so this page stays alive meanwhile; without JavaScript it posts normally, without progress.
const form = document.getElementById("obf-import");
if (form) {
  const box = document.getElementById("import-progress");
  const bar = document.getElementById("import-progress-bar");
  const text = document.getElementById("import-progress-text");
  const submit = document.getElementById("import-submit");
  const url = `${form.dataset.progress}?job=${encodeURIComponent(form.elements.job.value)}`;
  let answered = false;

  async function poll() {
    if (answered) return;
    try {
      const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (response.ok && !answered) {
        const state = await response.json();
        const done = Number(state.done), total = Number(state.total);
        if (total > 0) {
          bar.max = total;
          bar.value = done;
        } else {
          bar.removeAttribute("value");
        }
        text.textContent = state.text;
      }
    } catch {
      // The next poll tries again; the import's own answer arrives regardless.
    }
    setTimeout(poll, 700);
  }

  form.addEventListener("submit", async (event) => {
    if (!form.elements.file.files.length) return;
    event.preventDefault();
    box.hidden = false;
    form.setAttribute("aria-busy", "true");
    submit.disabled = true;
    setTimeout(poll, 300);
    try {
      const response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
      answered = true;
      if (response.redirected) {
        location.assign(response.url);  // the import's result page
        return;
      }
      // Refused (the form again, with the reason): show the page the server answered.
      const html = await response.text();
      document.open();
      document.write(html);
      document.close();
    } catch {
      answered = true;
      form.submit();  // the connection failed: send it the plain way
    }
  });
}
