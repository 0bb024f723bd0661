/* global window, document */
// The host page's script: embed the chat, answer its load with app:init, show app:error.
const config = await (await fetch('/config.json')).json();
const webOrigin = new URL(config.webUrl).origin;
const form = document.getElementById('pick');
const input = document.getElementById('report');
const status = document.getElementById('status');
const log = document.getElementById('log');
window.received = [];

const params = new URLSearchParams(window.location.search);
if (params.get('report')) input.value = params.get('report');

window.addEventListener('message', (event) => {
  // Only the embedded app's origin is listened to.
  if (event.origin !== webOrigin) return;
  window.received.push(event.data);
  const item = document.createElement('li');
  item.textContent = JSON.stringify(event.data);
  log.append(item);
  if (event.data?.type === 'app:error' && event.data.message === 'session_expired')
    status.textContent = 'The chat session expired: reload the chat to continue.';
});

async function open(reportId) {
  const frame = document.createElement('iframe');
  frame.title = 'Report chat';
  frame.src = `${config.webUrl}/embed/reports/${encodeURIComponent(reportId)}`;
  frame.addEventListener('load', async () => {
    // A fresh partner token for our user, from our own server, handed over in memory.
    const res = await fetch('/partner-token', { method: 'POST' });
    const { token } = await res.json();
    frame.contentWindow.postMessage({ type: 'app:init', authToken: token }, webOrigin);
    status.textContent = 'Chat started.';
  });
  document.getElementById('frame').replaceChildren(frame);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void open(input.value.trim());
});
if (input.value) void open(input.value);
