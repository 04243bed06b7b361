// "Share the result": a finished match's picture (/matches/ID/share.svg, made by the server)
// sent through the phone's share sheet (the Web Share API) where it has one. The picture is
// turned into a PNG on the phone (drawn on a canvas: the apps a result is sent to show PNG,
// seldom SVG), got ready as soon as the button shows, so that the tap shares at once. A share
// sheet that takes no files gets the picture's address. Without one the link does what a
// link does: it downloads the picture (its href asks for the file).

/** @type {Map<string, Promise<File | null>>} */
var ready = new Map();

/**
 * The server's SVG drawn as a PNG (null where the phone cannot draw it).
 * @param {Blob} svg
 * @returns {Promise<Blob | null>}
 */
async function toPng(svg) {
  try {
    var image = new Image();
    image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(await svg.text());
    await image.decode();
    var canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth || 1200;
    canvas.height = image.naturalHeight || 630;
    var context = canvas.getContext("2d");
    if (!context) { return null; }
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise(function (resolve) { canvas.toBlob(resolve, "image/png"); });
  } catch (error) {
    return null;
  }
}

/**
 * The picture of a link as a file to share: a PNG, else the SVG itself.
 * @param {HTMLAnchorElement} link
 * @returns {Promise<File | null>}
 */
function prepare(link) {
  var url = new URL(link.dataset.share || link.href, location.href).href;
  var found = ready.get(url);
  if (found) { return found; }
  var name = (link.dataset.shareName || "scopa.svg").replace(/\.svg$/, "");
  found = (async function () {
    try {
      var response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) { return null; }
      var svg = await response.blob();
      var png = await toPng(svg);
      if (png) { return new File([png], name + ".png", { type: "image/png" }); }
      return new File([svg], name + ".svg", { type: "image/svg+xml" });
    } catch (error) {
      return null;
    }
  })();
  ready.set(url, found);
  found.then(function (file) { if (!file) { ready.delete(url); } });  // tried again on the tap
  return found;
}

/**
 * @param {HTMLAnchorElement} link
 */
async function share(link) {
  var url = new URL(link.dataset.share || link.href, location.href).href;
  var title = link.dataset.shareTitle || document.title;
  var text = link.dataset.shareText || "";
  try {
    var file = await prepare(link);
    if (file && navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: title, text: text });
      return;
    }
    await navigator.share({ title: title, text: text, url: url });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") { return; }  // closed
    location.href = link.href;  // no share sheet after all: the picture itself
  }
}

function getReady() {
  if (typeof navigator.share !== "function") { return; }
  document.querySelectorAll("a[data-share]").forEach(function (link) {
    if (link instanceof HTMLAnchorElement) { prepare(link); }
  });
}

document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  var link = target && target.closest("a[data-share]");
  if (!(link instanceof HTMLAnchorElement) || typeof navigator.share !== "function") { return; }
  event.preventDefault();
  share(link);
});
document.addEventListener("htmx:afterSettle", getReady);  // the sheet swapped in: a new result
document.addEventListener("scopa:patched", getReady);  // or a change patched in (live.js)
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", getReady); } else { getReady(); }
document.addEventListener("scopa:page", getReady);
