// The board import page: while the upload's request is answered (pictures and sounds are converted on
// the server, a set of many boards can take minutes), ask the server how far it is and say so.
// The form posts normally; this page stays until the answer arrives, so it can poll meanwhile.
const form = document.getElementById("obf-import");
if (form) {
  const box = document.getElementById("import-progress");
  const bar = document.getElementById("import-progress-bar");
  const text = document.getElementById("import-progress-text");
  const submit = document.getElementById("import-submit");
  const url = `${form.dataset.progress}?job=${encodeURIComponent(form.elements.job.value)}`;

  async function poll() {
    try {
      const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (response.ok) {
        const state = await response.json();
        const done = Number(state.done), total = Number(state.total);
        if (total > 0) {
          bar.max = total;
          bar.value = done;
        } else {
          bar.removeAttribute("value");
        }
        text.textContent = state.text;
        if (state.phase === "done" || state.phase === "failed") return;
      }
    } catch {
      // The next poll tries again; the form's own answer arrives regardless.
    }
    setTimeout(poll, 700);
  }

  form.addEventListener("submit", () => {
    if (!form.elements.file.files.length) return;
    box.hidden = false;
    form.setAttribute("aria-busy", "true");
    setTimeout(() => { submit.disabled = true; }, 0);
    setTimeout(poll, 400);
  });
}
