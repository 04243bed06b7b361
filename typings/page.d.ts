// What the page scripts (src/scopa/web/static/*.js) find on window that no module of theirs
// exports: htmx (a classic script, vendor/htmx.min.js), the handles kept for the tests, and
// the tests' knob for the pace of the computer's moves. Read by tsc only.

interface HtmxAjaxContext { source?: Element; target?: string | Element; swap?: string }

interface Htmx {
  ajax(verb: string, path: string | null, context: HtmxAjaxContext): Promise<void>;
  process(element: Element): void;
}

/** What htmx's events carry (https://htmx.org/events/), as far as the page reads it. */
interface HtmxRequestConfig { verb: string; elt: HTMLElement; path: string }
interface HtmxDetail {
  elt: HTMLElement;
  verb: string;
  headers: Record<string, string>;
  successful: boolean;
  requestConfig: HtmxRequestConfig;
  xhr: XMLHttpRequest;
  serverResponse: string;
  shouldSwap: boolean;
}

interface DocumentEventMap {
  "htmx:configRequest": CustomEvent<HtmxDetail>;
  "htmx:beforeRequest": CustomEvent<HtmxDetail>;
  "htmx:afterRequest": CustomEvent<HtmxDetail>;
  "htmx:sendError": CustomEvent<HtmxDetail>;
  "htmx:beforeSwap": CustomEvent<HtmxDetail>;
  "htmx:afterSwap": CustomEvent<HtmxDetail>;
  "htmx:afterSettle": CustomEvent<HtmxDetail>;
  /** A page shown in place (util.js showPage). */
  "scopa:page": Event;
}

interface Window {
  htmx?: Htmx;
  /** Handles for the tests and the console (util.js expose); nothing in the page reads them. */
  scopa?: Record<string, unknown>;
  /** The pause between the computer's moves on the Play page, in ms (tests set it). */
  SCOPA_PLAY_PAUSE?: number;
}

/** Swagger UI's bundle (vendor/swagger-ui/swagger-ui-bundle.js, a classic script). */
declare const SwaggerUIBundle: {
  (options: Record<string, unknown>): unknown;
  presets: { apis: unknown };
};
