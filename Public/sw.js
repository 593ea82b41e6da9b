// The service worker of Tagarela's offline boards (docs/decisions/0009-offline-boards-and-faults.md, "Offline boards and faults").
// It keeps a patient's pages (home, boards, timer, games) (network first; the kept copy only when the network fails) and
// the fingerprinted or content-addressed files they use (kept copy first: they never change).
// Any other page goes to the network; when there is none, the kept "/offline" page says why and how to get back
// (never the browser's error page). Every POST goes to the network as if this were not here.
// Taps made offline are not its business: board-player.js queues them in localStorage.

const PAGES = "tagarela-pages-v1";
const FILES = "tagarela-files-v1";
const LISTING = "/play/offline";
const OFFLINE_PAGE = "/offline";
// A page is refreshed when opened online; the others when the listing changes or after this long.
const REFRESH_AFTER_MS = 5 * 60 * 1000;
const FILES_PER_WRITE = 24;

// The patient's pages kept offline: the home, the boards, the timer and the games (OfflineBoards.pagePaths).
const isPlayerPage = (url) =>
  url.pathname === "/patient" || url.pathname === "/play" || url.pathname === "/timer" ||
  /^\/play\/[0-9]+$/.test(url.pathname) ||
  /^\/educat(\/[a-z-]+(\/(lesson|game|challenge))?)?$/.test(url.pathname);
const isKeptFile = (url) =>
  (/^\/(css|js|img)\/([a-z-]+\/)?[^/]+$/.test(url.pathname) && url.searchParams.has("v")) ||
  /^\/(pictograms|media\/audio|media\/images|fonts)\/[^/]+$/.test(url.pathname);
// A module the player and game scripts import by its plain URL: it can change under the same name, so
// it is fetched first and the kept copy serves only offline.
const isImportedModule = (url) => /^\/js\/([a-z-]+\/)?[^/]+\.js$/.test(url.pathname) && !url.searchParams.has("v");
const keyOf = (url) => url.pathname + url.search;

self.addEventListener("install", (event) => event.waitUntil(self.skipWaiting()));

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("tagarela-") && key !== PAGES && key !== FILES) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isPlayerPage(url)) event.respondWith(networkFirst(request, url));
  else if (request.mode === "navigate") event.respondWith(networkOrExplained(request));
  else if (isKeptFile(url)) event.respondWith(keptFirst(url));
  else if (isImportedModule(url)) event.respondWith(fetchedFirst(url));
});

async function fetchedFirst(url) {
  const files = await caches.open(FILES);
  try {
    const response = await fetch(keyOf(url), { credentials: "same-origin" });
    if (response.status === 200) await files.put(keyOf(url), response.clone());
    return response;
  } catch (error) {
    const kept = await files.match(keyOf(url));
    if (kept) return kept;
    throw error;
  }
}

async function networkOrExplained(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const explained = await (await caches.open(PAGES)).match(OFFLINE_PAGE);
    if (explained) return explained;
    throw error;
  }
}

async function networkFirst(request, url) {
  const pages = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    // Only the patient's own page: a redirect (to the login page) or an error page is never kept.
    if (response.status === 200 && response.type === "basic") {
      if (url.pathname === "/timer" && url.search) await forgetOtherTimers(pages);
      await pages.put(keyOf(url), response.clone());
    }
    return response;
  } catch (error) {
    // A folder's board opened with ?from= falls back to the same board kept without it; a timer
    // started offline falls back to the kept timer form, which draws the run itself (timer.js).
    const kept = (await pages.match(keyOf(url))) ?? (await pages.match(url.pathname));
    if (kept) return kept;
    throw error;
  }
}

// Only the latest running timer is kept: a reload carries on with it offline.
async function forgetOtherTimers(pages) {
  for (const request of await pages.keys()) {
    const url = new URL(request.url);
    if (url.pathname === "/timer" && url.search) await pages.delete(request);
  }
}

async function keptFirst(url) {
  const files = await caches.open(FILES);
  const kept = await files.match(keyOf(url));
  if (kept) return kept;
  // Asked without the media element's Range header: the whole file is kept, and a 200 plays as well.
  const response = await fetch(keyOf(url), { credentials: "same-origin" });
  if (response.status === 200) await files.put(keyOf(url), response.clone());
  return response;
}

self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep-boards") return;
  const reply = event.ports[0];
  event.waitUntil(keepBoardsOnce().then(
    (kept) => reply?.postMessage({ kept }),
    (error) => {
      console.warn("keeping the boards failed:", error);
      reply?.postMessage({ kept: false });
    }));
});

// Every patient page asks for its boards to be kept, and a child going through her boards opens several
// pages a second: an ask made while a keeping runs waits for that run instead of starting another over
// the same hundreds of files.
let keeping = null;
function keepBoardsOnce() {
  keeping ??= keepBoards().finally(() => {
    keeping = null;
  });
  return keeping;
}

// Keeps every page and file the patient's boards need, as listed by the server, and forgets the rest.
// Nothing is done when a keeping that missed nothing stored this same listing less than REFRESH_AFTER_MS
// ago: files never change under their name, and an opened page is kept again by networkFirst.
async function keepBoards() {
  const answer = await fetch(LISTING, { credentials: "same-origin", cache: "no-store", redirect: "manual" });
  if (answer.status !== 200) return false;
  const text = await answer.text();
  const pages = await caches.open(PAGES);
  const files = await caches.open(FILES);
  const previous = await pages.match(LISTING);
  const fresh = previous?.headers.get("X-Complete") === "yes" && (await previous.clone().text()) === text &&
    Date.now() - Number(previous.headers.get("X-Kept-At")) <= REFRESH_AFTER_MS;
  if (fresh) return true;

  const listing = JSON.parse(text);
  // Not followed to the login page when the tablet was signed out meanwhile: nothing there to keep.
  const asked = (path) => new Request(path, { credentials: "same-origin", redirect: "manual" });
  const keep = (cache) => async (path) => {
    const response = await fetch(asked(path));
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await cache.put(path, response);
  };
  // Files are kept in batches of one write each, after one look at what the cache holds (together a fifth
  // of the keeping's CPU, against a write and a look per file); a batch fails all or nothing, so a
  // failed one is kept file by file, and one missing clip does not leave its neighbours out.
  const keepFiles = async (paths) =>
    files.addAll(paths.map(asked)).then(() => 0, () => inBatches(paths, keep(files)));
  const keptFiles = new Set((await files.keys()).map((request) => keyOf(new URL(request.url))));
  const missing = listing.files.filter((path) => !keptFiles.has(path));
  let failed = 0;
  for (let i = 0; i < missing.length; i += FILES_PER_WRITE) failed += await keepFiles(missing.slice(i, i + FILES_PER_WRITE));
  failed += await inBatches(listing.pages, keep(pages));

  const listedPages = new Set(listing.pages);
  for (const request of await pages.keys()) {
    const path = new URL(request.url).pathname;
    if (path !== LISTING && !listedPages.has(path)) await pages.delete(request);
  }
  const listedFiles = new Set(listing.files);
  for (const path of keptFiles) {
    if (!listedFiles.has(path)) await files.delete(path);
  }
  await pages.put(LISTING, new Response(text, {
    headers: {
      "Content-Type": "application/json",
      "X-Kept-At": String(Date.now()),
      "X-Complete": failed === 0 ? "yes" : "no",
    },
  }));
  return true;
}

// Runs `work` on every path, a few at a time; answers how many failed.
async function inBatches(paths, work, size = 4) {
  let failed = 0;
  for (let i = 0; i < paths.length; i += size) {
    await Promise.all(paths.slice(i, i + size).map((path) => work(path).catch(() => {
      failed += 1;
    })));
  }
  return failed;
}
