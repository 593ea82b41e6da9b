// The patient's event log (taps, spoken sentences) as a queue kept in localStorage: an event is
// stored before it is sent, sent in order, and removed once the server has it. The browser's key
// makes each event count once on the server, so a tablet that was offline sends its taps later,
// with the time they were made, exactly once.
//
// One queue for every event a patient's pages make (board taps, eduCAT answers and results): an
// event may carry its own address in `_url` (fields starting with "_" stay in the browser), so any
// page that opens the queue sends everything waiting, in order. `_id` names an event in the queue
// when its `key` is not unique to it (an eduCAT game's answer batches share the game's key).

const retried = [403, 408, 429];

// randomUUID only exists in secure contexts (https, localhost), not on a LAN http address.
export const newKey = () => crypto.randomUUID?.() ??
  "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
    (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));

/**
 * @param {object} options
 * @param {string} options.url       where events are POSTed (form-encoded)
 * @param {string} options.csrf      the page's CSRF token
 * @param {HTMLElement} [options.status]  the element that says "offline — N waiting"
 * @param {string} [options.offlineText]  its text, with {n} for the count
 * @param {(event: object, response: Response) => void} [options.onSent]  told of each stored event
 */
export function createEventQueue({ url, csrf = "", status, offlineText = "", sentText = "", onSent, storageKey = "tagarela-taps" }) {
  let memoryQueue = [];
  let storageWorks = true;
  let flushing = null;
  let lastFlushFailed = false;
  let noticeShown = false;
  let sentTimer = 0;

  // localStorage is the truth (another page may have queued events); memory is the fallback.
  function read() {
    if (storageWorks) {
      try {
        const saved = JSON.parse(localStorage.getItem(storageKey) ?? "[]");
        if (Array.isArray(saved)) return saved.filter((event) => event?._id || event?.key);
      } catch {
        // Unavailable or unreadable: use the copy in memory.
      }
    }
    return memoryQueue;
  }

  function write(queue) {
    memoryQueue = queue;
    if (!storageWorks) return;
    try {
      localStorage.setItem(storageKey, JSON.stringify(queue));
    } catch {
      storageWorks = false; // full or forbidden: from now on the queue lives in memory
    }
  }

  const idOf = (event) => event._id ?? event.key;
  const urlOf = (event) => event._url ?? url;

  async function send(event) {
    const fields = Object.fromEntries(Object.entries(event)
      .filter(([name, value]) => !name.startsWith("_") && value !== undefined && value !== null));
    try {
      const response = await fetch(urlOf(event), {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "X-CSRF-Token": csrf },
        credentials: "same-origin",
        redirect: "manual", // a redirect (say, to the login page) did not record the event
        keepalive: true, // an event queued as the page closes still goes (a copy stays queued until answered)
        signal: AbortSignal.timeout?.(10_000), // a hung request must not stall the queue
      });
      return response;
    } catch {
      return null;
    }
  }

  async function drain() {
    // An event this page cannot address (an old tap without `_url`, read on a page with no tap
    // address) waits for a page that can.
    const next = () => read().find((event) => urlOf(event));
    for (let event = next(); event; event = next()) {
      const response = await send(event);
      const code = response?.status ?? 0; // 0: no answer, or a redirect
      // 2xx and 4xx (a bad event) are done; the rest is retried. 403 is retried too: an expired
      // session or patient mode left refuses the POST, and the events must wait for the next page
      // load (with a live session and a fresh token) instead of being dropped.
      const done = (code >= 200 && code < 300) || (code >= 400 && code < 500 && !retried.includes(code));
      lastFlushFailed = !done;
      if (!done) return;
      write(read().filter((queued) => idOf(queued) !== idOf(event)));
      showStatus();
      if (code >= 200 && code < 300) {
        try {
          await onSent?.(event, response); // done with the event before the next one, or the flush, ends
        } catch (error) {
          console.error(error);
        }
      }
    }
  }

  function flush() {
    flushing ??= drain().catch(console.error).finally(() => {
      flushing = null;
      showStatus();
    });
    return flushing;
  }

  function showStatus() {
    if (!status) return;
    const waiting = read().length;
    // Once shown, the notice stays (counting down) until the queue is empty.
    if (waiting > 0 && (!navigator.onLine || lastFlushFailed || noticeShown)) {
      clearTimeout(sentTimer);
      status.textContent = offlineText.replaceAll("{n}", waiting);
      status.hidden = false;
      noticeShown = true;
    } else if (waiting === 0 && noticeShown) {
      noticeShown = false;
      status.textContent = sentText;
      status.hidden = !sentText;
      if (sentText) sentTimer = setTimeout(() => (status.hidden = true), 4000);
    }
  }

  /** Stores an event (a key, the time and this queue's address are added) and tries to send it. */
  function add(fields) {
    write([...read(), { key: newKey(), _id: newKey(), _url: url, ...fields, at: new Date().toISOString() }]);
    showStatus();
    flush();
  }

  addEventListener("online", flush);
  addEventListener("offline", showStatus);
  addEventListener("pageshow", (event) => event.persisted && flush()); // back from the bfcache
  setInterval(() => read().length > 0 && flush(), 15_000);
  showStatus();
  flush();

  return { add, flush, length: () => read().length };
}
