import PushCore
import PushWords

/// The live view's page: HTML, CSS and a script, written here and served as they are. No
/// framework, no CDN, no build step: it works offline. The script puts every outside value on the
/// page with `textContent`, never as HTML.
enum WebViewPage {
    /// The page loads nothing but its own style sheet, script and event stream.
    static let securityHeaders: [(String, String)] = [
        (
            "content-security-policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("referrer-policy", "no-referrer"),
    ]

    /// The page, with the retained events (`[[id, event], …]`) in a JSON data block: not run as a
    /// script, and with every `<`, `>` and `&` escaped so that no text can close the block.
    static func html(retained: [(id: Int, data: String)], language: Language) -> [UInt8] {
        var block = "["
        for (index, event) in retained.enumerated() {
            if index > 0 { block += "," }
            block += "[\(event.id),\(event.data)]"
        }
        block += "]"
        var escaped = ""
        escaped.reserveCapacity(block.utf8.count)
        for scalar in block.unicodeScalars {
            switch scalar {
            case "<": escaped += "\\u003c"
            case ">": escaped += "\\u003e"
            case "&": escaped += "\\u0026"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let marker = "<ol id=\"events\" class=\"events\"></ol>"
        var page = String(decoding: template, as: UTF8.self)
        for (key, words) in pageWords { page = page.replacingOccurrences(of: "{{\(key)}}", with: words.text(language)) }
        // The script's words, as JSON (escaped like the events: no text can close the block).
        let scriptWords = JSONValue.object([("lang", .string(language.rawValue))] + self.scriptWords.map { ($0.0, .string($0.1.text(language))) })
        let wordsBlock = scriptWords.compact.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
        return Array(
            page.replacingOccurrences(
                of: marker,
                with: marker + "\n  <script type=\"application/json\" id=\"retained\">\(escaped)</script>"
                    + "\n  <script type=\"application/json\" id=\"words\">\(wordsBlock)</script>"
            ).utf8)
    }

    /// The page's own words, in the mock's language.
    static let pageWords: [(String, Words)] = [
        ("lang", Words("en", es: "es")),
        ("connecting", Words("connecting…", es: "conectando…")),
        ("filter", Words("Filter by device token", es: "Filtrar por token del dispositivo")),
        (
            "waiting",
            Words(
                "Waiting for requests. Send one with <code>pushctl send --endpoint …</code>: it appears here as the device would show it, with what APNs received.",
                es:
                    "Esperando peticiones. Envía una con <code>pushctl send --endpoint …</code>: aparece aquí como la mostraría el dispositivo, con lo que recibió APNs."
            )
        ),
        ("noscript", Words("This page needs JavaScript to show the requests.", es: "Esta página necesita JavaScript para mostrar las peticiones.")),
    ]

    /// The script's words (`t('key')` in the script).
    static let scriptWords: [(String, Words)] = [
        ("noAlertText", Words("No alert text: a badge or sound only.", es: "Sin texto de alerta: solo badge o sonido.")),
        ("silentPush", Words("Silent push", es: "Notificación silenciosa")),
        ("cutOnPhone", Words("Cut on the phone: ", es: "El teléfono recorta: ")),
        ("layoutAssumed", Words("An approximation of iOS's layout, assuming ", es: "Una aproximación de cómo lo dispone iOS, suponiendo ")),
        (
            "silentNote",
            Words(
                "Nothing is shown: the app wakes in the background (content-available: 1, priority ",
                es: "No se muestra nada: la app se despierta en segundo plano (content-available: 1, prioridad ")
        ),
        ("deliveredToApp", Words("Delivered to the app, not shown as a banner.", es: "Entregada a la app, sin banner.")),
        ("noAnswer", Words("no answer", es: "sin respuesta")),
        ("checkFailed", Words("check that failed: ", es: "comprobación que falló: ")),
        ("simulated", Words("simulated: ", es: "simulado: ")),
        ("deviceToken", Words("Device token", es: "Token del dispositivo")),
        (
            "jwtTitle",
            Words(
                "Provider token (JWT): header and claims; the signature is not shown",
                es: "Token del proveedor (JWT): cabecera y claims; la firma no se muestra")
        ),
        ("issued", Words("issued", es: "firmado")),
        ("certificate", Words("TLS client certificate", es: "Certificado de cliente TLS")),
        ("headers", Words("Headers", es: "Cabeceras")),
        ("payload", Words("Payload", es: "Carga útil")),
        ("bytes", Words("bytes", es: "bytes")),
        ("empty", Words("(empty)", es: "(vacía)")),
        ("signatureHidden", Words("bearer <header> <claims> (signature not shown)", es: "bearer <cabecera> <claims> (la firma no se muestra)")),
        ("received", Words("received", es: "recibidas")),
        ("shown", Words("shown", es: "mostradas")),
        ("live", Words("live", es: "en directo")),
        ("reconnecting", Words("reconnecting…", es: "reconectando…")),
        ("timestamp", Words("timestamp", es: "timestamp")),
        ("stale", Words("stale", es: "caduca")),
        ("dismissal", Words("dismissal", es: "se retira")),
        ("unixHint", Words("UNIX seconds: ", es: "segundos UNIX: ")),
        ("dropped", Words("a device would drop this: ", es: "un dispositivo descartaría esto: ")),
        ("notSent", Words("Refused by pushctl, never sent", es: "Rechazada por pushctl, nunca se envió")),
        (
            "notSentNote",
            Words(
                "pushctl checks a notification before sending it: nothing reached APNs, so there is no request to show.",
                es: "pushctl comprueba cada notificación antes de enviarla: no llegó nada a APNs, así que no hay petición que mostrar.")
        ),
        ("payloadSize", Words("payload: ", es: "carga útil: ")),
        ("limitOf", Words(" bytes, the limit is ", es: " bytes, el límite es ")),
        ("firstAnswer", Words("first answer: ", es: "primera respuesta: ")),
        (
            "resigned",
            Words(
                "pushctl signed a new provider token and sent the same notification again:",
                es: "pushctl firmó un token del proveedor nuevo y volvió a enviar la misma notificación:")
        ),
        ("firstRequest", Words("The first request (refused)", es: "La primera petición (rechazada)")),
    ]

    private static let template = Array(
        #"""
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pushctl mock — live</title>
        <link rel="stylesheet" href="/web-view.css">
        <script src="/web-view.js" defer></script>
        </head>
        <body>
        <header class="bar">
          <h1>pushctl mock <span id="state" class="state">{{connecting}}</span></h1>
          <input id="filter" type="search" placeholder="{{filter}}" autocomplete="off" spellcheck="false" aria-label="{{filter}}">
          <span id="count" class="count"></span>
        </header>
        <main>
          <p id="empty" class="empty">{{waiting}}</p>
          <noscript><p class="empty">{{noscript}}</p></noscript>
          <ol id="events" class="events"></ol>
        </main>
        </body>
        </html>

        """#.utf8)

    static let css = Array(
        #"""
        :root { color-scheme: light; --ink: #1c1c1e; --muted: #6e6e73; --line: rgba(60,60,67,.18); }
        * { box-sizing: border-box; }
        body { margin: 0; min-height: 100vh; font: 15px/1.35 -apple-system, BlinkMacSystemFont, "SF Pro Text", "Helvetica Neue", Roboto, "DejaVu Sans", Arial, sans-serif;
               color: var(--ink); background: linear-gradient(160deg, #5b6ee1 0%, #8a5bd6 45%, #d86aa5 100%) fixed; }
        .bar { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; padding: 10px 18px;
               background: rgba(250,250,252,.88); border-bottom: 1px solid var(--line); }
        .bar h1 { font-size: 17px; margin: 0; font-weight: 600; }
        .state { font-size: 12px; font-weight: 500; color: var(--muted); margin-left: 6px; }
        .state.live { color: #1f8f3a; }
        .state.live::before { content: "● "; }
        #filter { flex: 1 1 260px; max-width: 460px; padding: 6px 10px; border-radius: 9px; border: 1px solid var(--line); font: inherit; background: #fff; }
        .count { font-size: 13px; color: var(--muted); }
        main { max-width: 1100px; margin: 0 auto; padding: 18px; }
        .empty { color: #fff; font-size: 16px; text-align: center; margin: 40px auto; max-width: 520px; }
        .empty code { background: rgba(0,0,0,.2); padding: 1px 5px; border-radius: 5px; }
        .events { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 14px; }
        .event { display: grid; grid-template-columns: minmax(280px, 380px) 1fr; gap: 14px; align-items: start; }
        .event[hidden] { display: none; }
        @media (max-width: 760px) { .event { grid-template-columns: 1fr; } }

        .card { border-radius: 22px; padding: 12px 14px 13px; box-shadow: 0 8px 24px rgba(0,0,0,.18); overflow-wrap: anywhere; }
        .banner { background: rgba(245,245,247,.93); }
        .head { display: flex; align-items: center; gap: 8px; margin-bottom: 5px; font-size: 13px; color: var(--muted); }
        .icon { position: relative; flex: none; width: 22px; height: 22px; border-radius: 6px; color: #fff; font-weight: 700; font-size: 13px;
                display: grid; place-items: center; background: linear-gradient(180deg, #4ea1ff, #2f6fe4); }
        .badge { position: absolute; top: -7px; right: -9px; min-width: 17px; height: 17px; padding: 0 4px; border-radius: 9px; background: #ff3b30;
                 color: #fff; font-size: 11px; line-height: 17px; text-align: center; }
        .app { text-transform: uppercase; letter-spacing: .02em; flex: 1; }
        .time { flex: none; }
        .title { font-weight: 600; }
        .subtitle { font-weight: 500; }
        .body { white-space: pre-wrap; }
        .body.line { white-space: pre; }
        .note.cut { color: #b25000; }
        .meta { margin-top: 7px; font-size: 12px; color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 12px; }

        .silent { background: rgba(245,245,247,.78); border: 2px dashed rgba(60,60,67,.35); box-shadow: none; }
        .silent .icon { background: linear-gradient(180deg, #a1a1a6, #6e6e73); }
        .live-activity { background: rgba(28,28,30,.92); color: #f2f2f7; }
        .live-activity .head { color: #aeaeb2; }
        .live-activity .icon { background: linear-gradient(180deg, #34c759, #248a3d); }
        .live-activity .meta { color: #aeaeb2; }
        .state-list { margin: 6px 0 0; display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; font-size: 14px; }
        .state-list dt { color: #aeaeb2; }
        .state-list dd { margin: 0; font-weight: 600; }
        .rejected { background: rgba(255,242,241,.96); border-left: 6px solid #ff3b30; }
        .rejected .icon { background: linear-gradient(180deg, #ff6961, #d70015); }
        .reason { font-weight: 700; color: #b00020; }
        .plain { background: rgba(245,245,247,.9); }
        .note { font-size: 13px; color: var(--muted); margin-top: 4px; }
        .live-activity .note { color: #aeaeb2; }

        .request { background: rgba(255,255,255,.95); border-radius: 14px; padding: 8px 12px; font-size: 13px; box-shadow: 0 4px 14px rgba(0,0,0,.12); min-width: 0; }
        .request summary { cursor: pointer; font-family: ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
        .request h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 10px 0 4px; }
        .request pre { margin: 0; padding: 6px 8px; background: #f2f2f7; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere;
                       font: 12px/1.4 ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace; }
        .request table { border-collapse: collapse; width: 100%; font: 12px/1.4 ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace; }
        .request td { border-top: 1px solid var(--line); padding: 2px 6px 2px 0; vertical-align: top; overflow-wrap: anywhere; }
        .request td:first-child { color: var(--muted); white-space: nowrap; }
        .card.dropped { outline: 3px solid #ff9f0a; }
        .card.fails { outline: 3px solid #d70015; }
        .finding { font-size: 13px; margin-top: 4px; }
        .finding.will-fail { color: #d70015; font-weight: 600; }
        .finding.will-look-wrong { color: #b25000; }
        .finding.note { color: var(--muted); }
        .live-activity .finding.will-fail { color: #ff6961; }
        .live-activity .finding.note { color: #aeaeb2; }
        .note.dropped { color: #9a5b00; font-weight: 600; }
        .when { cursor: help; text-decoration: underline dotted; }
        .notsent { background: rgba(245,245,247,.9); border: 2px dashed #ff3b30; box-shadow: none; }
        .notsent .icon { background: linear-gradient(180deg, #a1a1a6, #6e6e73); }
        .notsent .title { color: #b00020; }
        .story { margin: 0 0 8px; padding: 8px 12px; border-radius: 14px; background: rgba(255,242,241,.92); font-size: 13px; }
        .story .reason { font-size: 13px; }
        .story details { margin-top: 4px; }
        .story summary { cursor: pointer; color: var(--muted); }
        .story pre { margin: 4px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace; }
        /* A new card slides in; not for those who asked their system for less motion. */
        @keyframes arrive { from { opacity: 0; transform: translateY(-10px) scale(.98); } to { opacity: 1; transform: none; } }
        .event.new { animation: arrive .35s ease-out; }
        @media (prefers-reduced-motion: reduce) { .event.new { animation: none; } }
        """#.utf8)

    static let script = Array(
        #"""
        'use strict';
        (function () {
          // Cards kept on the page; the server keeps as many for late viewers.
          const LIMIT = 500;
          const list = document.getElementById('events');
          const empty = document.getElementById('empty');
          const filter = document.getElementById('filter');
          const count = document.getElementById('count');
          const stateLabel = document.getElementById('state');
          let lastID = 0;
          let received = 0;
          let autoOpened = null;
          // Cards that arrive while the page is open slide in; those drawn with the page do not.
          let animate = false;

          // Every outside value goes through textContent: nothing from a request is ever parsed as HTML.
          function el(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined && text !== null) node.textContent = String(text);
            return node;
          }
          function text(value) {
            if (value === undefined || value === null) return '';
            return typeof value === 'string' ? value : JSON.stringify(value);
          }
          function isObject(value) { return value !== null && typeof value === 'object' && !Array.isArray(value); }
          const wordsBlock = document.getElementById('words');
          const W = wordsBlock ? JSON.parse(wordsBlock.textContent) : {};
          function t(key, fallback) { return typeof W[key] === 'string' ? W[key] : fallback; }
          const lang = W.lang || 'en';
          // A UNIX time as a person reads it: local time and how long ago (or ahead); the number on hover.
          function when(unix) {
            if (typeof unix !== 'number' || !isFinite(unix) || Math.abs(unix) > 1e11) return text(unix);
            const date = new Date(unix * 1000);
            const seconds = Math.round(unix - Date.now() / 1000);
            const units = [['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
            let relative = '';
            try {
              const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: 'short' });
              for (const [unit, size] of units) {
                if (Math.abs(seconds) >= size || unit === 'second') { relative = format.format(Math.round(seconds / size), unit); break; }
              }
            } catch (e) { relative = ''; }
            const day = Math.abs(seconds) < 86400 ? {} : { year: 'numeric', month: 'short', day: 'numeric' };
            return date.toLocaleString(lang, Object.assign({ hour: '2-digit', minute: '2-digit', second: '2-digit' }, day)) + (relative ? ' (' + relative + ')' : '');
          }
          function timeItem(label, unix) {
            const span = el('span', 'when', label + ' ' + when(unix));
            span.title = t('unixHint', 'UNIX seconds: ') + text(unix);
            return span;
          }
          function clock(iso) {
            const date = new Date(iso);
            return isNaN(date) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
          }
          function short(token) { return token.length > 16 ? token.slice(0, 8) + '…' + token.slice(-8) : token; }

          function head(event, label) {
            const row = el('div', 'head');
            const icon = el('span', 'icon', (event.app || '?').slice(0, 1));
            const aps = isObject(event.payload) && isObject(event.payload.aps) ? event.payload.aps : {};
            if (aps.badge !== undefined && aps.badge !== 0) icon.appendChild(el('span', 'badge', text(aps.badge)));
            row.appendChild(icon);
            row.appendChild(el('span', 'app', label || event.app || event.topic || 'unknown app'));
            row.appendChild(el('span', 'time', clock(event.time)));
            return row;
          }

          function alertParts(aps) {
            const alert = aps.alert;
            if (typeof alert === 'string') return { body: alert };
            if (!isObject(alert)) return {};
            return {
              title: alert.title !== undefined ? text(alert.title) : (alert['title-loc-key'] ? 'title-loc-key: ' + text(alert['title-loc-key']) : undefined),
              subtitle: alert.subtitle !== undefined ? text(alert.subtitle) : undefined,
              body: alert.body !== undefined ? text(alert.body) : (alert['loc-key'] ? 'loc-key: ' + text(alert['loc-key']) : undefined),
            };
          }

          function meta(items) {
            const row = el('div', 'meta');
            for (const item of items) if (item) row.appendChild(typeof item === 'string' ? el('span', null, item) : item);
            return row;
          }

          function soundName(sound) {
            if (sound === undefined) return null;
            if (isObject(sound)) return 'sound ' + text(sound.name) + (sound.critical ? ' (critical)' : '');
            return 'sound ' + text(sound);
          }

          function customKeys(payload) {
            return isObject(payload) ? Object.keys(payload).filter(function (key) { return key !== 'aps'; }) : [];
          }

          function bannerCard(event) {
            const aps = isObject(event.payload) && isObject(event.payload.aps) ? event.payload.aps : {};
            const card = el('div', 'card banner');
            card.appendChild(head(event));
            const parts = alertParts(aps);
            const phone = isObject(event.phone) ? event.phone : null;
            if (phone) {
              // The lines as the phone breaks and cuts them (pushctl's approximation of iOS's layout).
              if (!phone.headerIsApp) for (const line of phone.header || []) card.appendChild(el('div', 'title', text(line)));
              for (const line of phone.subtitle || []) card.appendChild(el('div', 'subtitle', text(line)));
              for (const line of phone.body || []) card.appendChild(el('div', 'body line', text(line)));
              if ((phone.hidden || []).length) {
                const cut = el('div', 'note cut', t('cutOnPhone', 'Cut on the phone: ') + phone.hidden.map(text).join(' · '));
                cut.title = t('layoutAssumed', 'An approximation of iOS\'s layout, assuming ') + text(phone.screen);
                card.appendChild(cut);
              }
            } else {
              if (parts.title) card.appendChild(el('div', 'title', parts.title));
              if (parts.subtitle) card.appendChild(el('div', 'subtitle', parts.subtitle));
              if (parts.body) card.appendChild(el('div', 'body', parts.body));
            }
            if (!parts.title && !parts.body && !phone) card.appendChild(el('div', 'note',  t('noAlertText', 'No alert text: a badge or sound only.')));
            card.appendChild(meta([
              aps.badge !== undefined ? 'badge ' + text(aps.badge) : null,
              soundName(aps.sound),
              aps['interruption-level'] ? text(aps['interruption-level']) : null,
              aps.category ? 'category ' + text(aps.category) : null,
              aps['thread-id'] ? 'thread ' + text(aps['thread-id']) : null,
              aps['mutable-content'] ? 'mutable-content' : null,
            ]));
            return card;
          }

          function silentCard(event) {
            const card = el('div', 'card silent');
            card.appendChild(head(event));
            card.appendChild(el('div', 'title', t('silentPush', 'Silent push')));
            card.appendChild(el('div', 'note',  t('silentNote', 'Nothing is shown: the app wakes in the background (content-available: 1, priority ') + text(event.priority || '5') + ').'));
            const keys = customKeys(event.payload);
            if (keys.length) card.appendChild(meta(['data: ' + keys.join(', ')]));
            return card;
          }

          function liveActivityCard(event) {
            const aps = isObject(event.payload) && isObject(event.payload.aps) ? event.payload.aps : {};
            const card = el('div', 'card live-activity');
            const what = event.kind === 'broadcast' ? 'broadcast' : 'Live Activity';
            card.appendChild(head(event, (event.app || '') + ' · ' + what + ' · ' + text(aps.event || '?')));
            // APNs answered 200, but the device would drop it: say so on the card, with the lint's reason.
            if (event.status === 200 && event.detail) {
              card.classList.add('dropped');
              card.appendChild(el('div', 'note dropped', '⚠ ' + t('dropped', 'a device would drop this: ') + event.detail.replace(/^(a device would drop this Live Activity|un dispositivo descartaría esta Live Activity): /, '')));
            }
            const parts = alertParts(aps);
            if (parts.title) card.appendChild(el('div', 'title', parts.title));
            if (parts.body) card.appendChild(el('div', 'body', parts.body));
            const state = aps['content-state'];
            if (isObject(state)) {
              const rows = el('dl', 'state-list');
              Object.keys(state).slice(0, 12).forEach(function (key) {
                rows.appendChild(el('dt', null, key));
                rows.appendChild(el('dd', null, text(state[key])));
              });
              card.appendChild(rows);
            }
            card.appendChild(meta([
              event.channelID ? 'channel ' + event.channelID : null,
              aps['attributes-type'] ? 'starts ' + text(aps['attributes-type']) : null,
              aps.timestamp !== undefined ? timeItem(t('timestamp', 'timestamp'), aps.timestamp) : null,
              aps['stale-date'] !== undefined ? timeItem(t('stale', 'stale'), aps['stale-date']) : null,
              aps['dismissal-date'] !== undefined ? timeItem(t('dismissal', 'dismissal'), aps['dismissal-date']) : null,
              aps['relevance-score'] !== undefined ? 'relevance ' + text(aps['relevance-score']) : null,
            ]));
            return card;
          }

          function rejectedCard(event) {
            const card = el('div', 'card rejected');
            card.appendChild(head(event));
            const status = event.status === 0 ? t('noAnswer', 'no answer') : String(event.status);
            card.appendChild(el('div', 'reason', '✗ ' + status + (event.reason ? ' ' + event.reason : '')));
            if (event.explanation) card.appendChild(el('div', 'body', event.explanation));
            if (event.detail) card.appendChild(el('div', 'note', t('checkFailed', 'check that failed: ') + event.detail));
            if (event.fault) card.appendChild(el('div', 'note', t('simulated', 'simulated: ') + event.fault));
            return card;
          }

          function notSentCard(event) {
            const card = el('div', 'card notsent');
            card.appendChild(head(event));
            card.appendChild(el('div', 'title', '⊘ ' + t('notSent', 'Refused by pushctl, never sent')));
            if (event.message) card.appendChild(el('div', 'body', event.message));
            card.appendChild(meta([t('payloadSize', 'payload: ') + text(event.bodyBytes) + t('limitOf', ' bytes, the limit is ') + text(event.limit)]));
            return card;
          }

          function plainCard(event) {
            const card = el('div', 'card plain');
            card.appendChild(head(event));
            if (event.kind === 'channel') {
              card.appendChild(el('div', 'title', 'Channel API: ' + event.method + ' → ' + event.status));
              if (event.channelID) card.appendChild(el('div', 'note', 'channel ' + event.channelID));
            } else {
              card.appendChild(el('div', 'title', (event.pushType || 'push') + ' push'));
              card.appendChild(el('div', 'note', t('deliveredToApp', 'Delivered to the app, not shown as a banner.')));
            }
            return card;
          }

          function details(event) {
            const box = el('details', 'request');
            const target = event.deviceToken ? '/3/device/' + short(event.deviceToken) : event.path;
            box.appendChild(el('summary', null, event.method + ' ' + target + ' → ' + (event.status || t('noAnswer', 'no answer')) +
              (event.apnsID ? ' · apns-id ' + event.apnsID : '')));
            if (event.deviceToken) { box.appendChild(el('h3', null, t('deviceToken', 'Device token'))); box.appendChild(el('pre', 'token', event.deviceToken)); }
            if (event.jwt) {
              box.appendChild(el('h3', null, t('jwtTitle', 'Provider token (JWT): header and claims; the signature is not shown')));
              box.appendChild(el('pre', 'jwt', JSON.stringify(event.jwt.header, null, 2) + '\n' + JSON.stringify(event.jwt.claims, null, 2)));
              const iat = isObject(event.jwt.claims) ? event.jwt.claims.iat : undefined;
              if (typeof iat === 'number') box.appendChild(meta([timeItem('iat ' + iat + ' · ' + t('issued', 'issued'), iat)]));
            }
            if (event.certificate) { box.appendChild(el('h3', null, t('certificate', 'TLS client certificate'))); box.appendChild(el('pre', null, event.certificate)); }
            box.appendChild(el('h3', null, t('headers', 'Headers')));
            const table = el('table');
            (event.headers || []).forEach(function (pair) {
              const row = el('tr');
              row.appendChild(el('td', null, pair[0]));
              row.appendChild(el('td', null, pair[0] === 'authorization' ?  t('signatureHidden', 'bearer <header> <claims> (signature not shown)') : pair[1]));
              table.appendChild(row);
            });
            box.appendChild(table);
            box.appendChild(el('h3', null, t('payload', 'Payload') + ' (' + event.bodyBytes + ' ' + t('bytes', 'bytes') + ')'));
            box.appendChild(el('pre', 'payload', event.payload !== undefined ? JSON.stringify(event.payload, null, 2) : (event.body || t('empty', '(empty)'))));
            return box;
          }

          function kindCard(event) {
            switch (event.kind) {
              case 'alert': return bannerCard(event);
              case 'background': return silentCard(event);
              case 'liveactivity': case 'broadcast': return liveActivityCard(event);
              case 'rejected': return rejectedCard(event);
              case 'notsent': return notSentCard(event);
              default: return plainCard(event);
            }
          }

          // What the phone will do with it, judged against the app (pushctl mock --app): APNs said
          // 200, and a finding that will fail turns the card red with the reason.
          function card(event) {
            const drawn = kindCard(event);
            const findings = Array.isArray(event.findings) ? event.findings : [];
            if (findings.some(function (f) { return f.severity === 'will-fail'; })) drawn.classList.add('fails');
            for (const finding of findings) {
              drawn.appendChild(el('div', 'finding ' + text(finding.severity), text(finding.text)));
            }
            return drawn;
          }

          function wanted(filterText, token) {
            if (!filterText) return true;
            return (token || '').toLowerCase().indexOf(filterText) >= 0;
          }
          function filterText() { return filter.value.replace(/[\s<>]/g, '').toLowerCase(); }

          // A provider token refused (403), then the same notification sent again with a new token:
          // one story on one card, not two refusals. Keyed by device token, topic and payload.
          const TOKEN_REASONS = ['ExpiredProviderToken', 'InvalidProviderToken'];
          const STORY_SECONDS = 60;
          const refusedTokens = new Map();
          function storyKey(event) {
            if (!event.deviceToken || event.kind === 'notsent') return null;
            return event.deviceToken + '\n' + text(event.topic) + '\n' + (event.payload !== undefined ? JSON.stringify(event.payload) : text(event.body));
          }
          function earlierRefusal(event, key) {
            const earlier = key !== null ? refusedTokens.get(key) : undefined;
            if (!earlier) return null;
            refusedTokens.delete(key);
            const gap = (Date.parse(event.time) - Date.parse(earlier.event.time)) / 1000;
            return earlier.item.parentNode === list && gap >= 0 && gap <= STORY_SECONDS ? earlier : null;
          }
          function story(earlier) {
            const box = el('div', 'story');
            const first = earlier.event;
            box.appendChild(el('div', 'reason', t('firstAnswer', 'first answer: ') + '✗ ' + first.status + ' ' + text(first.reason) + ' · ' + clock(first.time)));
            if (first.explanation) box.appendChild(el('div', 'note', first.explanation));
            box.appendChild(el('div', null, t('resigned', 'pushctl signed a new provider token and sent the same notification again:')));
            if (first.jwt) {
              const fold = el('details');
              fold.appendChild(el('summary', null, t('firstRequest', 'The first request (refused)')));
              fold.appendChild(el('pre', 'jwt', JSON.stringify(first.jwt.header, null, 2) + '\n' + JSON.stringify(first.jwt.claims, null, 2)));
              box.appendChild(fold);
            }
            return box;
          }

          function add(event, id) {
            if (id && id <= lastID) return;  // seen before a reconnection
            if (id) lastID = id;
            received = Math.max(received + 1, id || 0);
            const item = el('li', 'event');
            item.dataset.kind = event.kind;
            item.dataset.token = event.deviceToken || '';
            const key = storyKey(event);
            const earlier = earlierRefusal(event, key);
            if (earlier) {
              list.removeChild(earlier.item);
              item.classList.add('retried');
              const column = el('div', 'retry');
              column.appendChild(story(earlier));
              column.appendChild(card(event));
              item.appendChild(column);
            } else {
              item.appendChild(card(event));
              if (key !== null && event.status === 403 && TOKEN_REASONS.indexOf(event.reason) >= 0) refusedTokens.set(key, { item: item, event: event });
            }
            if (refusedTokens.size > LIMIT) refusedTokens.delete(refusedTokens.keys().next().value);
            if (animate) { item.classList.add('new'); setTimeout(function () { item.classList.remove('new'); }, 600); }
            const request = event.kind === 'notsent' ? el('div', 'request', t('notSentNote', 'pushctl checks a notification before sending it: nothing reached APNs, so there is no request to show.')) : details(event);
            // The newest request shows what APNs received; the one it replaces folds up, unless opened by hand.
            if (event.kind !== 'notsent') {
              if (autoOpened) autoOpened.open = false;
              request.open = true;
              autoOpened = request;
              request.querySelector('summary').addEventListener('click', function () { if (autoOpened === request) autoOpened = null; });
            }
            item.appendChild(request);
            item.hidden = !wanted(filterText(), event.deviceToken);
            list.insertBefore(item, list.firstChild);
            while (list.childElementCount > LIMIT) list.removeChild(list.lastElementChild);
            empty.hidden = true;
            showCount();
          }

          function showCount() {
            const shown = Array.prototype.filter.call(list.children, function (item) { return !item.hidden; }).length;
            count.textContent = received + ' ' + t('received', 'received') + (shown !== list.childElementCount || received > list.childElementCount
              ? ' · ' + shown + ' ' + t('shown', 'shown') : '');
          }

          filter.addEventListener('input', function () {
            const wantedText = filterText();
            Array.prototype.forEach.call(list.children, function (item) { item.hidden = !wanted(wantedText, item.dataset.token); });
            showCount();
          });

          // The requests the mock kept come inside the page: drawn at once, then the stream goes on after them.
          const retained = document.getElementById('retained');
          if (retained) {
            let initial = [];
            try { initial = JSON.parse(retained.textContent); } catch (error) { initial = []; }
            if (Array.isArray(initial)) initial.forEach(function (pair) {
              if (Array.isArray(pair) && isObject(pair[1])) add(pair[1], Number(pair[0]) || 0);
            });
          }

          animate = true;

          function setState(label, live) { stateLabel.textContent = label; stateLabel.className = live ? 'state live' : 'state'; }
          const source = new EventSource('/events?after=' + lastID);
          source.onopen = function () { setState(t('live', 'live'), true); };
          // A stream the mock ends on schedule is back within a second: say so only if it is not.
          source.onerror = function () {
            setTimeout(function () { if (source.readyState !== 1) setState(t('reconnecting', 'reconnecting…'), false); }, 1500);
          };
          source.onmessage = function (message) {
            let event;
            try { event = JSON.parse(message.data); } catch (error) { return; }
            if (isObject(event)) add(event, Number(message.lastEventId) || 0);
          };
        })();

        """#.utf8)
}
