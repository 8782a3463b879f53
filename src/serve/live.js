// Live refresh: the server sends its kit generation over server-sent events; when it changes
// (a ruleset was saved and rebuilt, or failed its check), the page reloads, or, on the
// play-test page, asks the engine again without losing the game.
(function () {
  var first = null;
  var es = new EventSource('/events');
  es.onmessage = function (e) {
    if (first === null) { first = e.data; return; }
    if (e.data === first) return;
    first = e.data;
    if (typeof window.sowkitRebuilt === 'function') window.sowkitRebuilt();
    else location.reload();
  };
})();
