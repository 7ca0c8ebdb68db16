// Starts the engine's worker as soon as the page runs a script, while the rest of the page's
// modules still load and run: the worker's downloads and Python's start do not wait for the
// table's code. js/app.js takes the worker over (Engine.start). It imports engine.js alone.

import { startEarly } from "./engine.js";

startEarly();
