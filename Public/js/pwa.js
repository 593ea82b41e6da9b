// Offline boards. On a patient's page: registers the service worker (/sw.js) and asks it to keep
// every board of this patient, so the tablet keeps working with no network. On a page seen signed
// out: deletes what an earlier patient left on this device.

const mode = document.querySelector('meta[name="tagarela-offline"]')?.content;
// Tests (and curious tutors' devtools) can wait for the boards to be kept.
const offline = (window.tagarelaOffline = { ready: Promise.resolve(false) });

function askToKeep(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data?.kept === true);
    worker.postMessage({ type: "keep-boards" }, [channel.port2]);
  });
}

// Service workers exist only in secure contexts (https, localhost): elsewhere the boards still work
// online, and taps still wait in localStorage while the network is away.
if ("serviceWorker" in navigator && mode === "keep") {
  offline.ready = navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => (navigator.onLine && registration.active ? askToKeep(registration.active) : false))
    .catch((error) => {
      console.warn("offline boards unavailable:", error);
      return false;
    });
} else if ("serviceWorker" in navigator && mode === "forget") {
  offline.ready = Promise.all([
    navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((r) => r.unregister()))),
    globalThis.caches?.keys().then((keys) =>
      Promise.all(keys.filter((key) => key.startsWith("tagarela-")).map((key) => caches.delete(key)))),
  ]).then(() => false, () => false);
}
