// The table's sounds, synthesized with WebAudio (no sound files): a card played, a trick
// taken, the shuffle and deal, your turn, the end of a deal.
//
//   import * as sound from "./sound.js";
//   sound.setup(button)       the mute button (aria-pressed), the remembered choice
//   sound.play("card")        "card" | "trick" | "deal" | "turn" | "end"
//   sound.events(events, me)  the sounds of a reply's new events
//
// Quiet by default (a low master volume), muted when the person says so (remembered in the
// preferences), and silent until the person's first gesture: the AudioContext is created in
// that gesture's handler, never before, so no browser blocks it and nothing plays on a page
// that was only opened; a page muted makes none until the person unmutes it. `sound.log`
// lists what really sounded (the tests read it).
//
// The context runs only while it sounds: suspended while muted and a little after the last
// sound ends, resumed by the next one and by each gesture of the person's (a browser that lets
// a context sound only from a gesture, as Safari on phones may, finds it running for the
// card just clicked). A running context renders silence without end (about 2 % of a core on
// the machine the tests run on: a phone's battery between two tricks).

import { t, onLangChange } from "./i18n.js";
import * as store from "./storage.js";

const VOLUME = 0.16; // quiet: the master gain

let audio = null; // the AudioContext, from the first gesture on
let master = null;
let muted = false;
let button = null;
let noiseBuffer = null;
let rest = null; // the timer that suspends the context once its last sound is over
const REST_MS = 2500; // after a sound is started: the longest ends in under a second
export const log = [];

/** The AudioContext's state ("running", "suspended"), "none" before the first gesture. */
export function state() {
  return audio ? audio.state : "none";
}

// What was asked last: a resume and a suspend asked close together can settle in either
// order (a suspend of a context still suspended settles at once, before the resume asked
// first), so each, once settled, does the other again if that was asked after it.
let wanted = "suspended";

function suspend() {
  clearTimeout(rest);
  rest = null;
  wanted = "suspended";
  if (audio && audio.state !== "closed") {
    audio.suspend().then(() => { if (wanted === "running") audio.resume().catch(() => {}); }, () => {});
  }
}

/** Running now, at rest REST_MS from now unless a sound comes first. */
function wake() {
  wanted = "running";
  if (audio.state !== "closed") {
    audio.resume().then(() => { if (wanted === "suspended") audio.suspend().catch(() => {}); }, () => {});
  }
  clearTimeout(rest);
  rest = setTimeout(suspend, REST_MS);
}

/** Wire the mute button and wait for the first gesture. */
export function setup(btn) {
  const prefs = store.loadPrefs();
  muted = !!(prefs.sound && prefs.sound.muted);
  button = btn || null;
  if (button) {
    button.addEventListener("click", () => setMuted(!muted));
    onLangChange(label);
    label();
  }
  const gesture = () => {
    if (muted) return; // no context at all while muted: the first gesture once unmuted makes it
    if (!audio) start();
    else wake();
  };
  window.addEventListener("pointerdown", gesture, true);
  window.addEventListener("keydown", gesture, true);
}

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = !!value;
  store.updatePrefs({ sound: { muted } });
  if (muted) suspend(); // the next sound once unmuted resumes it
  label();
}

function label() {
  if (!button) return;
  button.setAttribute("aria-pressed", muted ? "true" : "false");
  button.classList.toggle("muted", muted);
  // one name, the action ("Mute the sounds"), pressed while muted
  const words = t("sound.aria");
  button.title = `${words}: ${muted ? t("sound.off") : t("sound.on")}`;
  button.setAttribute("aria-label", words);
  const text = button.querySelector(".label");
  if (text) text.textContent = words;
}

function start() {
  if (audio) return;
  const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext; // older Safari
  if (!Ctx) return;
  try {
    audio = new Ctx();
    master = audio.createGain();
    master.gain.value = VOLUME;
    master.connect(audio.destination);
    noiseBuffer = audio.createBuffer(1, Math.floor(audio.sampleRate * 0.4), audio.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    let seed = 12345; // the same grain every time: a small LCG, no Math.random
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = seed / 0x3fffffff - 1;
    }
    // made in the gesture, so the browser lets it sound; at rest once no sound follows
    wake();
  } catch {
    audio = null; // a browser without sound: the game goes on silently
  }
}

/** A burst of filtered noise: the snap of a card, the swish of a trick. */
function noise(at, dur, freq, q, gain, sweepTo = null) {
  const src = audio.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.setValueAtTime(freq, at);
  if (sweepTo) filter.frequency.exponentialRampToValueAtTime(sweepTo, at + dur);
  filter.Q.value = q;
  const env = audio.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.006);
  env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(filter).connect(env).connect(master);
  src.start(at);
  src.stop(at + dur + 0.02);
}

/** A soft tone: the turn's ping, the notes at the end of a deal. */
function tone(at, dur, freq, gain, type = "sine", glideTo = null) {
  const osc = audio.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, at + dur);
  const env = audio.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.015);
  env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(env).connect(master);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}

const SOUNDS = {
  card: (at) => { noise(at, 0.07, 2400, 1.2, 0.9); noise(at + 0.01, 0.05, 600, 0.8, 0.4); },
  trick: (at) => { noise(at, 0.18, 1800, 0.9, 0.7, 500); noise(at + 0.09, 0.16, 1500, 0.9, 0.5, 400); },
  deal: (at) => { for (let i = 0; i < 7; i++) noise(at + i * 0.055, 0.05, 2000 + (i % 3) * 300, 1.4, 0.6); },
  turn: (at) => tone(at, 0.22, 880, 0.35, "sine", 740),
  end: (at) => { [523.25, 659.25, 783.99].forEach((f, i) => tone(at + i * 0.12, 0.42, f, 0.3, "triangle")); },
};

/** Play one of the table's sounds (nothing when muted or before the first gesture). */
export function play(name) {
  if (muted || !audio || !SOUNDS[name]) return false;
  wake();
  try {
    SOUNDS[name](audio.currentTime + 0.01); // its clock stood still while at rest
  } catch {
    return false;
  }
  log.push(name);
  if (log.length > 200) log.shift();
  return true;
}

/** The sounds of a reply's new events: cards played, a trick taken, the deal's end. */
export function events(list) {
  let card = false;
  let trick = false;
  let end = false;
  for (const e of list || []) {
    if (e.type === "play") card = true;
    else if (e.type === "trick") trick = true;
    else if (e.type === "end") end = true;
  }
  if (card) play("card");
  if (trick) setTimeout(() => play("trick"), 250);
  if (end) setTimeout(() => play("end"), 500);
}
