// The reading pages' only script. They ship no wasm: every link and form is
// a plain one, and this keeps their live parts current. A page showing live
// data carries a badge naming the server events it follows
// (`data-events="runs cases"`) and the feed to follow (`data-feed`: a page
// of one benchmark hears only of that benchmark's runs); on each such event
// (or after the stream was lost and regained) the page is fetched again and
// its <main> replaced, so the reader sees new figures without reloading.
// Open pages spread their refetches over most of a second, so that many
// readers do not all arrive at the same instant. Without JavaScript the page
// reads the same, only static.
(() => {
  document.body.dataset.light = 'true';
  const badges = () => document.querySelectorAll('[data-testid="live-badge"]');
  const events = new Set();
  badges().forEach((b) => (b.dataset.events || '').split(' ').filter(Boolean).forEach((e) => events.add(e)));
  if (events.size === 0 || !('EventSource' in window)) return;

  const feeds = new Set([...badges()].map((b) => b.dataset.feed || '/api/events'));
  const source = new EventSource(feeds.size === 1 ? [...feeds][0] : '/api/events');
  const show = (on) => badges().forEach((b) => {
    b.classList.toggle('on', on);
    b.textContent = (on ? b.dataset.on : b.dataset.off) || b.textContent;
  });
  let timer = 0;
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(location.href, { credentials: 'same-origin', cache: 'no-cache', headers: { Accept: 'text/html' } });
      if (res.ok) {
        const next = new DOMParser().parseFromString(await res.text(), 'text/html');
        const fresh = next.getElementById('main');
        const main = document.getElementById('main');
        if (fresh && main) {
          main.replaceChildren(...fresh.childNodes);
          document.title = next.title;
          show(source.readyState === EventSource.OPEN);
        }
      }
    } catch (e) {
      // The next event or reconnection tries again.
    } finally {
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  // Changes come in bursts (a job storing runs): one fetch per burst, at a
  // moment of its own between 150 and 750 ms after the last change.
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150 + Math.random() * 600);
  };
  for (const name of [...events, 'resync']) source.addEventListener(name, schedule);
  let dropped = false;
  source.onopen = () => {
    show(true);
    if (dropped) {
      dropped = false;
      schedule();
    }
  };
  source.onerror = () => {
    show(false);
    dropped = true;
  };
})();
