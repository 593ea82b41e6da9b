// The evaluation form on a phone: shows only the skinfolds of the chosen protocol, asks the
// server for results as fields are filled in, and keeps a draft in the browser so a reload or
// a dropped connection loses nothing typed. The form works without this script.

const form = document.getElementById("evaluation-form");

if (form) {
  const draftKey = `tagarela-draft-${form.dataset.draft}`;
  const status = document.getElementById("draft-status");
  const results = document.getElementById("results");
  let timer = null;
  let inFlight = null;

  const fields = () => Array.from(form.elements).filter(
    (element) => element.name && element.name !== "_csrf" && element.type !== "submit");

  function showProtocolSites() {
    const chosen = form.querySelector("input[name=protocol]:checked")?.value;
    for (const row of form.querySelectorAll(".skinfold-row")) {
      const used = row.dataset.protocols.split(" ").includes(chosen);
      row.hidden = !used;
      row.classList.toggle("is-unused", !used);
    }
  }

  function saveDraft() {
    const values = {};
    for (const field of fields()) {
      if (field.type === "radio") {
        if (field.checked) values[field.name] = field.value;
      } else {
        values[field.name] = field.value;
      }
    }
    try {
      localStorage.setItem(draftKey, JSON.stringify({ savedAt: Date.now(), values }));
      status.textContent = status.dataset.saved || "";
    } catch {
      // Private mode or a full storage: the form still works, only without a draft.
    }
  }

  function restoreDraft() {
    let draft = null;
    try {
      draft = JSON.parse(localStorage.getItem(draftKey) || "null");
    } catch {
      draft = null;
    }
    if (!draft || form.querySelector("[aria-invalid=true]")) return false;
    // A page the server filled in (after an error) wins over an older draft.
    for (const field of fields()) {
      if (!(field.name in draft.values)) continue;
      if (field.type === "radio") {
        field.checked = field.value === draft.values[field.name];
      } else if (!field.value || field.type !== "date") {
        field.value = draft.values[field.name];
      }
    }
    return true;
  }

  async function preview() {
    inFlight?.abort();
    inFlight = new AbortController();
    try {
      const response = await fetch(form.dataset.preview, {
        method: "POST",
        body: new URLSearchParams(new FormData(form)),
        headers: { "X-Fragment": "results" },
        signal: inFlight.signal,
        credentials: "same-origin",
      });
      if (response.ok) results.innerHTML = await response.text();
    } catch {
      // Offline or aborted: the draft is kept; results come back with the network.
    }
  }

  form.addEventListener("input", () => {
    showProtocolSites();
    saveDraft();
    clearTimeout(timer);
    timer = setTimeout(preview, 400);
  });

  form.addEventListener("submit", () => {
    // The draft is dropped only when the evaluation page loads (see below), not here: if the
    // network fails during the submit, the draft is still there on the next visit.
    saveDraft();
  });

  showProtocolSites();
  if (restoreDraft()) {
    showProtocolSites();
    preview();
  }
}

// The evaluation was saved: its draft is no longer needed.
const saved = document.querySelector("[data-saved-draft]");
if (saved) {
  try {
    localStorage.removeItem(`tagarela-draft-${saved.dataset.savedDraft}`);
  } catch {
    // nothing to clean
  }
}
