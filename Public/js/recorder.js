// Records a symbol's sound in the browser: a 5-second countdown, playback before saving, and the
// recording handed to the form's ordinary file input, so the server treats it like an upload
// (it normalises every sound to MP3). Without MediaRecorder the file input alone still works.

const panel = document.getElementById("recorder");
const input = document.getElementById("audio");

if (panel && input && window.MediaRecorder && navigator.mediaDevices?.getUserMedia) {
  const button = panel.querySelector(".recorder-start");
  const status = panel.querySelector(".recorder-status");
  const playback = panel.querySelector(".recorder-playback");
  const seconds = Number(panel.dataset.seconds || 5);
  panel.hidden = false;

  const say = (template, n) => { status.textContent = template.replace("{n}", String(n)); };

  async function record() {
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      say(panel.dataset.denied, 0);
      return;
    }
    const recorder = new MediaRecorder(stream);
    const chunks = [];
    recorder.addEventListener("dataavailable", (event) => chunks.push(event.data));
    recorder.addEventListener("stop", () => {
      stream.getTracks().forEach((track) => track.stop());
      const type = recorder.mimeType || "audio/webm";
      const blob = new Blob(chunks, { type });
      const file = new File([blob], `recording.${type.includes("ogg") ? "ogg" : "webm"}`, { type });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.files = transfer.files;
      playback.src = URL.createObjectURL(blob);
      playback.hidden = false;
      button.disabled = false;
      say(panel.dataset.done, 0);
    });
    button.disabled = true;
    recorder.start();
    let left = seconds;
    say(panel.dataset.countdown, left);
    const timer = setInterval(() => {
      left -= 1;
      if (left > 0) {
        say(panel.dataset.countdown, left);
      } else {
        clearInterval(timer);
        if (recorder.state === "recording") recorder.stop();
      }
    }, 1000);
  }

  button.addEventListener("click", record);
}
