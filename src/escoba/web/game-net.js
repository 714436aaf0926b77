// @ts-check
// The room's WebSocket for the game screen. It sends the greeting (join with the seat token,
// or watch) on every (re)connection, reconnects with a growing pause when the connection drops
// (the server may restart; the match goes on), and pings to keep idle connections alive.

const DELAYS = [500, 1000, 2000, 4000, 8000, 15000];
const PING_EVERY = 20000;
const SILENCE_LIMIT = 50000; // no message for this long although we ping: the link is dead

export class RoomSocket {
  // onMessage(message) for every server message; onDrop() each time the connection is lost.
  /**
   * @param {string} room
   * @param {Protocol.JoinMessage | Protocol.WatchMessage} greeting
   * @param {{ onMessage: (message: Protocol.ServerMessage) => void, onDrop: (event: CloseEvent | null) => void }} handlers
   */
  constructor(room, greeting, { onMessage, onDrop }) {
    this.room = room;
    this.greeting = greeting;
    this.onMessage = onMessage;
    this.onDrop = onDrop;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.failures = 0;
    this.stopped = true;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    this.lastHeard = 0;
    this.wake = () => {
      if (!this.stopped && !this.socket) this.connectNow();
    };
  }

  start() {
    this.stopped = false;
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connectNow();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  get open() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  // Send one message; false when the connection is down (the caller tells the user).
  /** @param {Protocol.ClientMessage} message */
  send(message) {
    if (!this.open) return false;
    /** @type {WebSocket} */ (this.socket).send(JSON.stringify(message)); // open: there is one
    return true;
  }

  connectNow() {
    clearTimeout(this.retryTimer);
    if (this.stopped || this.socket) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/rooms/${encodeURIComponent(this.room)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.lastHeard = Date.now();
      socket.send(JSON.stringify(this.greeting));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.keepAlive(socket), PING_EVERY);
    });
    socket.addEventListener("message", (event) => {
      this.lastHeard = Date.now();
      /** @type {Protocol.ServerMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not ours to understand
      }
      if (message?.type === "welcome") this.failures = 0;
      if (message && typeof message.type === "string") this.onMessage(message);
    });
    socket.addEventListener("close", (event) => this.dropped(socket, event));
  }

  /** @param {WebSocket} socket */
  keepAlive(socket) {
    if (socket !== this.socket) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
      socket.close();
      this.dropped(socket, null);
      return;
    }
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }

  /**
   * @param {WebSocket} socket
   * @param {CloseEvent | null} event null when the link went silent
   */
  dropped(socket, event) {
    if (socket !== this.socket) return;
    this.socket = null;
    clearInterval(this.pingTimer);
    if (this.stopped) return;
    this.onDrop(event);
    const base = DELAYS[Math.min(this.failures, DELAYS.length - 1)];
    this.failures += 1;
    this.retryTimer = setTimeout(() => this.connectNow(), base * (0.8 + Math.random() * 0.4));
  }
}
