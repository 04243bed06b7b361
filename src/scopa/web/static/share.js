// "Share": a finished match's picture (/matches/ID/share.svg, made by the server) sent
// through the phone's share sheet (the Web Share API) where it has one: as an image file
// when the phone can share files, else as the picture's address. Without it the link does
// what a link does: it downloads the picture (its href asks for the file).

/**
 * @param {HTMLAnchorElement} link
 */
async function share(link) {
  var url = new URL(link.dataset.share || link.href, location.href).href;
  var title = link.dataset.shareTitle || document.title;
  var text = link.dataset.shareText || "";
  try {
    var response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) { throw new Error(String(response.status)); }
    var blob = await response.blob();
    var file = new File([blob], link.dataset.shareName || "scopa.svg", { type: "image/svg+xml" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: title, text: text });
      return;
    }
    await navigator.share({ title: title, text: text, url: url });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") { return; }  // closed
    location.href = link.href;  // no share sheet after all: the picture itself
  }
}

document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  var link = target && target.closest("a[data-share]");
  if (!(link instanceof HTMLAnchorElement) || typeof navigator.share !== "function") { return; }
  event.preventDefault();
  share(link);
});
