// @ts-check
// The lobby's WebSocket (/ws/lobby), shared by the open tables (lobby-tables.js) and the
// quick match (lobby-quick.js): connected once, again after a loss (waiting longer each time),
// each message handed to every listener; `onLobbyOpen` listeners run on every (re)connection.

const RETRY_MS = [1000, 2000, 5000, 10000]; // waits before connecting again, the last repeated

/** @type {Set<(message: Protocol.LobbyMessage) => void>} */
const listeners = new Set();
/** @type {Set<() => void>} */
const openers = new Set();
/** @type {WebSocket | null} */
let socket = null;
let failures = 0;

/** @param {(message: Protocol.LobbyMessage) => void} listener */
export function onLobbyMessage(listener) {
  listeners.add(listener);
}

/** @param {() => void} listener */
export function onLobbyOpen(listener) {
  openers.add(listener);
}

// Send a message now; false when the socket is not open (it is sent by nobody).
/** @param {Protocol.LobbyRequest} message */
export function sendLobby(message) {
  if (socket?.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

export function connectLobby() {
  if (socket) return;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/lobby`);
  socket.addEventListener("open", () => {
    failures = 0;
    for (const listener of openers) listener();
  });
  socket.addEventListener("message", (event) => {
    /** @type {Protocol.LobbyMessage} */
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return; // not a message of ours
    }
    for (const listener of listeners) listener(message);
  });
  socket.addEventListener("close", () => {
    socket = null;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    window.setTimeout(connectLobby, wait);
  });
}
