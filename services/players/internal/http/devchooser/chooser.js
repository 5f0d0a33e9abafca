// Hands the sign-in code to the window that opened the popup, as Google's popup does, then
// closes. Only the app's own origin may receive it.
(function () {
  var el = document.getElementById('codigo');
  if (!el || !window.opener) return;
  window.opener.postMessage({ tipo: 'prode-codigo', code: el.dataset.code }, window.location.origin);
  window.close();
})();
