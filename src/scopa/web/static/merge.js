// The outbox's merge decision (outbox.js): what to send for a change made on this device,
// given the match as the server has it now. Pure: no page, no storage (node --test runs it).

/** A JSON text of `value` with the keys of every object sorted: equal values, equal texts. */
export function canonical(value) {
  if (Array.isArray(value)) { return "[" + value.map(canonical).join(",") + "]"; }
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort().map(function (k) {
      return JSON.stringify(k) + ":" + canonical(value[k]);
    }).join(",") + "}";
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** Whether two JSON values are equal. */
export function same(a, b) { return canonical(a) === canonical(b); }

function json(url, method, body) {
  return { url: url, method: method, body: JSON.stringify(body), type: "application/json" };
}

// What to send now for an entry, given the match as the server has it (fresh):
// {request} | {drop} | {conflict}. Unrelated changes merge; the rest ask the person.
export function resolve(entry, now) {
  var base = entry.base || {};
  var deals = now.match.deals;
  var api = "/api/matches/" + entry.match;
  var version = now.version;
  function at(list, deal) {
    for (var i = 0; i < list.length; i++) { if (same(list[i], deal)) { return i + 1; } }
    return 0;
  }
  if (entry.kind === "add") {
    if (deals.length > base.count && !entry.accept_after) {
      return { conflict: { type: "appended", theirs: deals.slice(base.count), count: deals.length } };
    }
    return { request: json(api + "/deals", "POST", Object.assign({}, entry.body, { version: version })) };
  }
  if (entry.kind === "replace" || entry.kind === "delete") {
    var n = entry.number;
    var where = base.deal ? at(deals, base.deal) : n;
    if (entry.force) { where = Math.min(n, deals.length); }
    if (!where) {
      if (entry.kind === "delete") { return { drop: "deal " + n + " was already changed or deleted on another device" }; }
      var theirs = n <= deals.length ? deals[n - 1] : null;
      return { conflict: { type: "edited", theirs: theirs, number: n } };
    }
    if (entry.kind === "delete") { return { request: json(api + "/deals/" + where, "DELETE", { version: version }) }; }
    return { request: json(api + "/deals/" + where, "PUT", Object.assign({}, entry.body, { version: version })) };
  }
  if (entry.kind === "restore") {
    return { request: json(api + "/removed/" + entry.removed_id + "/restore", "POST", { version: version }) };
  }
  if (entry.kind === "rules") {
    var clash = Object.keys(entry.body).filter(function (name) {
      var was = (base.rules || {})[name], theirs = now.match.rules[name], mine = entry.body[name];
      return !entry.accept_rules && was !== undefined && !same(was, theirs) && !same(theirs, mine);
    });
    if (clash.length) {
      return { conflict: { type: "rules", settings: clash.map(function (name) {
        return { name: name, mine: entry.body[name], theirs: now.match.rules[name] };
      }) } };
    }
    return { request: json(api + "/rules", "PATCH", Object.assign({}, entry.body, { version: version })) };
  }
  return { drop: "unknown change" };
}

