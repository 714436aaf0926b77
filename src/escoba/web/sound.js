// @ts-check
// The game's sound effects, made here with the Web Audio API (a few short oscillator notes
// each, no sound files): a card played, a capture, a sweep, your turn, the hand over, and
// the clock's tick in your last seconds.
// Silent while muted (prefs.js remembers the choice); the browser starts the audio only once
// the page has had a click or a key, so effects before that are skipped.

import { soundMuted } from "./prefs.js";

// Each note: [frequency in Hz, start and length in seconds, waveform].
/** @type {{ [name: string]: [number, number, number, OscillatorType][] }} */
const EFFECTS = {
  card: [[330, 0, 0.07, "triangle"]],
  capture: [[440, 0, 0.08, "triangle"], [660, 0.07, 0.12, "triangle"]],
  sweep: [[523, 0, 0.12, "square"], [659, 0.1, 0.12, "square"], [784, 0.2, 0.12, "square"], [1047, 0.3, 0.3, "square"]],
  turn: [[880, 0, 0.09, "sine"], [1175, 0.1, 0.14, "sine"]],
  hand_over: [[392, 0, 0.16, "sine"], [330, 0.16, 0.16, "sine"], [262, 0.32, 0.32, "sine"]],
  tick: [[1320, 0, 0.04, "square"]],
};
export const SOUNDS = Object.keys(EFFECTS);

/** @type {AudioContext | null} */
let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// Play effect `name` unless muted; true when it was played.
/** @param {string} name */
export function playSound(name) {
  const notes = EFFECTS[name];
  if (!notes || soundMuted()) return false;
  const audioContext = audio();
  if (audioContext?.state !== "running" || !audioContext) return false;
  const start = audioContext.currentTime + 0.01;
  for (const [frequency, at, length, wave] of notes) {
    const oscillator = audioContext.createOscillator();
    const gain = audioContext.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    // A quick rise and an exponential fall: no click at either end.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(wave === "square" ? 0.05 : 0.15, start + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    oscillator.connect(gain).connect(audioContext.destination);
    oscillator.start(start + at);
    oscillator.stop(start + at + length + 0.02);
  }
  return true;
}

// Called on the page's first click or key, when the browser lets audio start.
export function wakeSound() {
  if (!soundMuted()) audio();
}
