// The page's side of a Pyodide module worker (scorer.js): the sheet's scorer (device.js) and
// the Play page's game (play_device.js, the worker named "play"). Started once per window;
// each call is a message {id, op, payload} answered by {id, result} or {id, failure}.

/** What the worker says once started: its start in ms, whether from its memory snapshot,
 * and the time each phase took.
 * @typedef {{ready: number, restored: boolean, phases: Record<string, number>}} Started */

/** @typedef {{resolve: (result: any) => void, reject: (error: Error) => void}} Waiting */

import { _, deck, language } from "./i18n.js";

export class PyWorker {
  /**
   * @param {string} name the worker's name ("" for the sheet's scorer)
   * @param {string} cannot what to say when this browser cannot run it
   */
  constructor(name, cannot) {
    this.name = name;
    this.cannot = cannot;
    /** @type {Worker | null} */
    this.worker = null;
    /** @type {Map<number, Waiting>} */
    this.calls = new Map();
    this.next = 1;
    /** @type {Started | null} */
    this.info = null;
    /** @type {number | null} its start in ms, once started */
    this.coldMs = null;
    /** @type {boolean | null} */
    this.restored = null;
    /** @type {number | null} the size of the memory snapshot it kept */
    this.snapshot = null;
    this.isReady = false;
    /** @type {(info: Started) => void} */
    var done = function () {};
    /** @type {(error: Error) => void} */
    var failed = function () {};
    /** @type {Promise<Started>} */
    this.ready = new Promise(function (resolve, reject) { done = resolve; failed = reject; });
    this.done = done;
    this.failed = failed;
    var self = this;
    this.ready.then(function () { self.isReady = true; }, function () { /* reported on use */ });
    this.start = this.start.bind(this);
  }

  /**
   * Tells the page how the start goes (offline.js shows it while someone waits).
   * @param {string} type
   * @param {Record<string, unknown>} detail
   */
  tell(type, detail) {
    document.dispatchEvent(new CustomEvent(type, { detail: Object.assign({ worker: this.name }, detail) }));
  }

  /** Starts the worker (once): its start, or why it could not. */
  start() {
    if (this.worker) { return this.ready; }
    if (!window.Worker) { this.failed(new Error(this.cannot)); return this.ready; }
    try {
      /** @type {WorkerOptions} */
      var options = { type: "module" };
      options.name = (this.name || "sheet") + ":" + language + ":" + deck; // the core speaks the page's language, its cards shown as the page shows them
      this.worker = new Worker("/static/scorer.js", options);
    } catch (error) {
      this.failed(error instanceof Error ? error : new Error(String(error)));
      return this.ready;
    }
    var self = this;
    this.worker.onmessage = function (event) { self.answer(event.data || {}); };
    // A worker whose script fails (it cannot load, or dies at its start) answers nothing more:
    // its start fails, and so does every call waiting on it, which would otherwise wait for ever.
    this.worker.onerror = function (event) {
      var error = new Error(event.message || self.cannot);
      self.failed(error);
      self.calls.forEach(function (waiting) { waiting.reject(error); });
      self.calls.clear();
    };
    this.ready.catch(function () { self.tell("scopa:scorer-ready", { failed: true }); });
    return this.ready;
  }

  /** @param {any} data a message from the worker */
  answer(data) {
    if (data.phase !== undefined) { this.tell("scopa:scorer-phase", { phase: data.phase }); return; }
    if (data.ready !== undefined) {
      this.info = data;
      this.coldMs = data.ready;
      this.restored = data.restored;
      this.done(data);
      this.tell("scopa:scorer-ready", {});
      return;
    }
    if (data.snapshot !== undefined) { this.snapshot = data.snapshot; return; }
    if (data.failed) { this.failed(new Error(data.failed)); return; }
    var waiting = this.calls.get(data.id);
    if (!waiting) { return; }
    this.calls.delete(data.id);
    if (data.failure) { waiting.reject(new Error(data.failure)); } else { waiting.resolve(data.result); }
  }

  /**
   * Asks the worker (started if need be; it answers once it has started).
   * @param {string} op
   * @param {unknown} payload
   * @returns {Promise<any>}
   */
  call(op, payload) {
    this.start();
    if (!this.isReady) { this.tell("scopa:scorer-waiting", {}); } // someone waits for its start
    const worker = this.worker;
    if (!worker) { return this.ready.then(function () { throw new Error(_("the worker did not start")); }); }
    var self = this;
    return new Promise(function (resolve, reject) {
      var id = self.next++;
      self.calls.set(id, { resolve: resolve, reject: reject });
      worker.postMessage({ id: id, op: op, payload: payload });
    });
  }
}
