// @ts-check
// The game page's effects: a sound for each play, capture, sweep, turn and hand's end (sound.js
// makes them), the mute switch in the bar, and the sweep's banner at the top of the felt
// (beside the stock and the turn, never over a card), gone with the next move.

import { t } from "./i18n.js";
import { seatName } from "./game-names.js";
import { setSoundMuted, soundMuted } from "./prefs.js";
import { playSound } from "./sound.js";

const byId = (id) => document.getElementById(id);

function sound(name) {
  if (playSound(name) || !soundMuted()) byId("sound-button").dataset.lastSound = name;
}

// A loudspeaker, with sound waves, or crossed out while muted (our own drawing, no font needed).
function speaker(muted) {
  const waves = muted
    ? '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    : '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  return `<svg viewBox="0 0 24 24" width="18" height="18" focusable="false"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${waves}</svg>`;
}

export function drawSoundButton() {
  const muted = soundMuted();
  const button = byId("sound-button");
  button.setAttribute("aria-pressed", String(muted));
  button.querySelector(".sound-icon").innerHTML = speaker(muted);
}

export function toggleSound() {
  setSoundMuted(!soundMuted());
  drawSoundButton();
}

let sweepTimer = null;
function hideSweep() {
  clearTimeout(sweepTimer);
  const banner = byId("sweep-banner");
  banner.hidden = true;
  banner.classList.remove("show");
}

function showSweep(state, event) {
  const banner = byId("sweep-banner");
  banner.replaceChildren(
    Object.assign(document.createElement("strong"), { textContent: t("game.event_sweep") }),
    Object.assign(document.createElement("span"), { textContent: seatName(state.room, event.seat, state.match.seat) }),
  );
  banner.hidden = false;
  banner.classList.remove("show");
  void banner.offsetWidth; // restart the animation for a second sweep in a row
  banner.classList.add("show");
  clearTimeout(sweepTimer);
  sweepTimer = setTimeout(() => {
    banner.hidden = true;
  }, 1500);
}

/**
 * @param {TableState} state
 * @param {TableState} previous
 * @param {Protocol.StateMessage} message
 */
export function eventEffects(state, previous, message) {
  const { match } = state;
  const event = message.event;
  // a banner names the sweep of the move just shown, never one before it
  if (event) hideSweep();
  if (event?.kind === "play") {
    sound(event.sweep ? "sweep" : event.captures.length ? "capture" : "card");
    if (event.sweep) showSweep(state, event);
  }
  if (message.hand_ended) {
    setTimeout(() => sound("hand_over"), 300);
  } else if (match.seat !== null && match.to_move === match.seat && previous?.match.to_move !== match.seat && !match.over) {
    setTimeout(() => sound("turn"), event ? 300 : 0);
  }
}
