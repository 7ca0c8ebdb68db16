// The puzzle of the day's entry in the statistics (its streak, its button's words), which the
// statistics show without the puzzle itself (js/puzzle.js, imported when the button is pressed:
// js/later.js).

import { t } from "./i18n.js";
import * as store from "./storage.js";

/** The local date as YYYY-MM-DD. */
export function today(d = new Date()) {
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The button that opens the day's puzzle: says whether it was solved or failed today. */
export function entryLabel(date = today()) {
  const played = store.puzzleResult(date);
  return t(!played ? "puzzle.open" : played.solved ? "puzzle.open.solved" : "puzzle.open.failed");
}

/** The statistics' puzzle entry (its streak, its button), as the statistics now hold. */
export function refreshEntry() {
  const streak = document.getElementById("stats-puzzle-streak");
  if (streak) streak.textContent = streakText();
  const btn = document.getElementById("btn-puzzle");
  if (btn) btn.textContent = entryLabel();
}

/** "Puzzle streak: 3 (best 5)" from the statistics. */
export function streakText() {
  const p = store.loadPuzzle();
  return t("puzzle.streak", { n: p.streak, best: p.best });
}
