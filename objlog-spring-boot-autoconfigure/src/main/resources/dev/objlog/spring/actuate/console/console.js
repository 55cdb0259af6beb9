// The objlog console: reads the objlog actuator endpoint's JSON and draws it. No framework, no
// build step. Every value from the server is inserted as text (never as HTML).
'use strict';
(function () {
  // The page is served at <endpoint>/console; the endpoint is everything before that.
  const ENDPOINT = location.pathname.replace(/\/console(\/(index\.html)?)?$/, '');
  const HISTORY_MS = 10 * 60 * 1000; // lag history kept in the page
  const SEGMENT_PAGE = 100;

  const state = {
    refreshMs: 5000,
    writable: false,
    history: new Map(), // "listener\u0000partition" -> [{t, head, position, lag}]
    selected: null, // {stream, partition, fromLsn}
    lastBody: null,
    rendered: false,
  };

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('data-')) node.setAttribute(k, v);
      else if (k === 'onclick') node.addEventListener('click', v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const svgNs = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(svgNs, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  function badge(text, kind) {
    return el('span', {class: 'state ' + kind}, text);
  }

  function cell(label, value, numeric, field) {
    return el('td', {'data-label': label, 'data-field': field, class: numeric ? 'num' : null}, value);
  }

  function bytes(n) {
    if (n === null || n === undefined) return '—';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let v = Number(n);
    let i = 0;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (i === 0 ? String(v) : v.toFixed(1)) + ' ' + units[i];
  }

  function duration(ms) {
    if (ms === null || ms === undefined || !isFinite(ms)) return '—';
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    if (s < 86400) return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
    return Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h';
  }

  function clockTime(iso) {
    return iso ? new Date(iso).toLocaleTimeString() : '—';
  }

  // ISO-8601 durations as Java prints them: PT5S, PT0.5S, PT1M30S.
  function parseDuration(text) {
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(text || '');
    if (!m) return null;
    return ((+(m[1] || 0) * 60 + +(m[2] || 0)) * 60 + +(m[3] || 0)) * 1000;
  }

  async function getJson(url) {
    const response = await fetch(url, {headers: {Accept: 'application/json'}, credentials: 'same-origin'});
    if (!response.ok) throw new Error('GET ' + url + ' answered ' + response.status);
    return response.json();
  }

  // Write actions go through the endpoint's own operations, with the header and JSON body the
  // server's write guard requires of a browser.
  async function post(url, body) {
    const response = await fetch(url, {
      method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', 'X-Objlog-Console': '1', Accept: 'application/json'},
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error('answered ' + response.status + (text ? ': ' + text : ''));
    return text ? JSON.parse(text) : null;
  }

  function partitionUrl(stream, partition) {
    return ENDPOINT + '/' + encodeURIComponent(stream) + '/' + partition;
  }

  // ------------------------------------------------------------------ overview

  async function refresh() {
    try {
      const body = await getJson(ENDPOINT + '?heads=cached');
      state.lastBody = body;
      const refreshMs = parseDuration(body.headsRefresh);
      if (refreshMs) state.refreshMs = Math.max(1000, refreshMs);
      state.writable = body.writeOperations === true;
      const now = Date.parse(body.time);
      renderStore(body);
      renderMemory(body.memory);
      renderStreams(body, now);
      renderListeners(body, now);
      if (!state.rendered) {
        state.rendered = true;
        performance.mark('objlog-console-rendered'); // the benchmark's "page loaded"
      }
      renderSegmentActions();
      const status = $('status');
      status.className = '';
      status.textContent = 'Updated ' + clockTime(body.time) + '; heads at most '
          + duration(state.refreshMs) + ' old; refreshing every ' + duration(state.refreshMs) + '.';
    } catch (e) {
      const status = $('status');
      status.className = 'failing';
      status.textContent = 'Refresh failed (' + e.message + '); showing the last data, trying again.';
    } finally {
      setTimeout(refresh, state.refreshMs);
    }
  }

  function renderStore(body) {
    const a = body.storeActivity || {};
    $('store-name').textContent = body.store;
    const health = $('store-health');
    if (a.failingSince) {
      health.className = 'state bad';
      health.textContent = 'failing since ' + clockTime(a.failingSince);
    } else if (a.lastSuccess) {
      health.className = 'state ok';
      health.textContent = 'answering';
    } else {
      health.className = 'state warn';
      health.textContent = 'no request yet';
    }
    $('store-last-success').textContent = a.lastSuccess ? new Date(a.lastSuccess).toLocaleString() : 'none yet';
    $('store-last-error').textContent = a.lastError
        ? a.lastError + ' (' + new Date(a.lastFailure).toLocaleString() + ')' : 'none';
    $('access').textContent = state.writable
        ? 'unrestricted: write actions are offered (each asks for confirmation)'
        : 'read-only: no write actions';
  }

  function renderMemory(m) {
    const section = $('memory');
    section.hidden = !m;
    if (!m) return;
    const parts = m.usedBytes || {};
    const used = Object.values(parts).reduce((a, b) => a + Number(b), 0);
    const share = m.capacityBytes > 0 ? used / m.capacityBytes : 0;
    $('memory-capacity').textContent = bytes(m.capacityBytes);
    $('memory-used').textContent = bytes(used) + ' (' + Math.round(share * 100) + ' %)';
    const s = $('memory-state');
    // words as well as colours; caches give memory back to writers before a writer waits
    const writersShare = m.capacityBytes > 0 ? Number(parts.writers || 0) / m.capacityBytes : 0;
    if (writersShare >= 0.9) {
      s.className = 'state bad';
      s.textContent = 'nearly full: writers may wait';
    } else if (share >= 0.7) {
      s.className = 'state warn';
      s.textContent = 'filling';
    } else {
      s.className = 'state ok';
      s.textContent = 'room to spare';
    }
    $('memory-parts').textContent = Object.entries(parts)
        .map(([part, n]) => part + ' ' + bytes(n)).join(', ') || '—';
    $('memory-reserved').textContent = bytes(m.reservedBytes);
    $('memory-borrowed').textContent = bytes(m.borrowedBytes);
    $('memory-reclaimed').textContent = bytes(m.reclaimedBytes);
    const waitedMs = m.writerWaitSeconds * 1000;
    $('memory-wait').textContent = !(waitedMs > 0) ? 'never'
        : (waitedMs < 1000 ? Math.max(1, Math.round(waitedMs)) + ' ms' : duration(waitedMs)) + ' in total';
    $('memory-zstd').textContent = String(m.zstdContexts);
  }

  function writerLeaseOwner(stream, partition) {
    const lease = stream.writerLease;
    if (!lease) return stream.writerPartitions ? 'no leases' : '—';
    const held = (lease.leases || []).find((l) => l.partition === partition);
    if (held) return held.owner + ' (this instance, epoch ' + held.epoch + ')';
    const other = (lease.othersLeases || []).find((l) => l.partition === partition);
    return other ? other.owner + ' (another instance, epoch ' + other.epoch + ')' : 'no lease seen';
  }

  function renderStreams(body, now) {
    const list = $('stream-list');
    const sections = [];
    for (const [name, stream] of Object.entries(body.streams || {})) {
      const rows = (stream.partitions || []).map((p) => {
        const age = p.newestRecordTimestamp ? duration(now - Date.parse(p.newestRecordTimestamp)) + ' ago' : 'no records';
        const local = p.localWriter ? p.localWriter.state.toLowerCase().replace(/_/g, ' ') : '—';
        let status;
        if (p.error) status = badge('head unreadable: ' + p.error, 'bad');
        else if (p.created === false) status = badge('not created yet', 'warn');
        else status = badge('readable', 'ok');
        // until-consumed retention: name the consumer that holds the retention floor back
        const held = p.retentionHeldBy;
        if (held) {
          status = el('span', {}, status, ' ', el('span', {class: 'held-by', 'data-field': 'retentionHeldBy'},
              'retention held by ' + held.consumer + ' at LSN ' + held.beforeLsn + ' for '
              + duration(held.heldForSeconds * 1000) + ' (' + bytes(held.heldBytes) + ')'));
        }
        const records = p.nextLsn !== undefined ? Number(p.nextLsn) - Number(p.oldestLsn) : null;
        return el('tr', {class: 'partition', 'data-stream': name, 'data-partition': p.partition},
            cell('Partition', p.partition, true, 'partition'),
            cell('Status', status, false, 'status'),
            cell('Oldest LSN', p.oldestLsn ?? '—', true, 'oldestLsn'),
            cell('Next LSN', p.nextLsn ?? '—', true, 'nextLsn'),
            cell('Records', records ?? '—', true, 'records'),
            cell('Writer epoch', p.writerEpoch ?? '—', true, 'writerEpoch'),
            cell('Writer lease', writerLeaseOwner(stream, p.partition), false, 'writerLease'),
            cell('Generation', p.generation ?? '—', true, 'generation'),
            cell('Segments', p.reachableSegmentCount ?? '—', true, 'reachableSegmentCount'),
            cell('Bytes', bytes(p.reachableBytes), true, 'reachableBytes'),
            cell('Newest record', age, false, 'newestRecordAge'),
            cell('Writer here', local, false, 'localWriter'),
            el('td', {'data-label': 'Segments'}, el('button', {type: 'button', class: 'open-segments',
              onclick: () => openSegments(name, p.partition, 0)}, 'Segments')));
      });
      sections.push(el('section', {class: 'stream', 'data-stream': name},
          el('h3', {}, name),
          el('p', {class: 'meta'}, 'stream id ' + stream.streamId + ' · ' + stream.partitionCount
              + (stream.partitionCount === 1 ? ' partition' : ' partitions')
              + (stream.writerPartitions ? ' · written here: ' + stream.writerPartitions : '')
              + (stream.writerLease ? ' · writer lease members: ' + stream.writerLease.members : '')),
          el('div', {class: 'table-wrap'}, el('table', {},
              el('thead', {}, el('tr', {}, ['Partition', 'Status', 'Oldest LSN', 'Next LSN', 'Records', 'Writer epoch',
                'Writer lease', 'Generation', 'Segments', 'Bytes', 'Newest record', 'Writer here', ''].map((h) => el('th', {}, h)))),
              el('tbody', {}, rows)))));
    }
    list.replaceChildren(...(sections.length ? sections : [el('p', {}, 'No streams are configured.')]));
  }

  // ------------------------------------------------------------------ listeners

  function listenerStateKind(s) {
    return s === 'RUNNING' ? 'ok' : s === 'FAILED' ? 'bad' : 'warn';
  }

  function remember(key, sample) {
    let samples = state.history.get(key);
    if (!samples) state.history.set(key, samples = []);
    samples.push(sample);
    while (samples.length && samples[0].t < sample.t - HISTORY_MS) samples.shift();
    return samples;
  }

  // How long the oldest unprocessed record has waited: since the first sample in which the head
  // had already passed the listener's position. Only as old as the page's history.
  function lagTime(samples, now) {
    const last = samples[samples.length - 1];
    if (last.lag === 0) return {text: '0 s', ms: 0};
    const first = samples.find((s) => s.head > last.position);
    if (!first) return {text: '—', ms: null};
    const since = first === samples[0] ? '≥ ' : '';
    return {text: since + duration(now - first.t), ms: now - first.t};
  }

  function sparkline(samples, now) {
    const w = 120;
    const h = 24;
    const max = Math.max(1, ...samples.map((s) => s.lag));
    // The time axis grows with the history, from one minute up to the ten kept.
    const span = Math.min(HISTORY_MS, Math.max(60 * 1000, now - samples[0].t));
    const points = samples.map((s) => {
      const x = w - ((now - s.t) / span) * w;
      const y = h - 1 - (s.lag / max) * (h - 2);
      return x.toFixed(1) + ',' + y.toFixed(1);
    }).join(' ');
    const label = 'lag over the last ' + duration(now - samples[0].t) + ': at most ' + max + ' records, now '
        + samples[samples.length - 1].lag;
    return svg('svg', {class: 'spark', viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': label},
        svg('title', {}, label), svg('polyline', {points}));
  }

  function renderListeners(body, now) {
    const list = $('listener-list');
    const sections = [];
    for (const [id, l] of Object.entries(body.listeners || {})) {
      const leases = new Map(((l.group && l.group.leases) || []).map((x) => [x.partition, x]));
      const rows = (l.partitionStatus || []).map((p) => {
        const lag = Number(p.lagRecords);
        const samples = remember(id + '\u0000' + p.partition,
            {t: now, head: Number(p.headNextLsn), position: Number(p.position), lag});
        const time = lagTime(samples, now);
        const lease = leases.get(p.partition);
        const owner = l.group
            ? (lease && lease.owner ? lease.owner + (lease.heldByThisInstance ? ' (this instance)' : '') : 'nobody')
            : 'this instance';
        return el('tr', {'data-listener': id, 'data-partition': p.partition},
            cell('Partition', p.partition, true, 'partition'),
            cell('Owner', owner, false, 'owner'),
            cell('State', badge(p.state.toLowerCase() + (p.failure ? ': ' + p.failure : ''), listenerStateKind(p.state)),
                false, 'state'),
            cell('Checkpoint LSN', p.checkpoint ?? 'none yet', true, 'checkpoint'),
            cell('Position', p.position, true, 'position'),
            cell('Head next LSN', p.headNextLsn, true, 'headNextLsn'),
            cell('Lag (records)', lag, true, 'lagRecords'),
            cell('Lag (time)', time.text, true, 'lagTime'),
            el('td', {'data-label': 'Lag history'}, sparkline(samples, now)));
      });
      // Group members own the partitions this table does not list; show them from the leases.
      for (const [partition, lease] of leases) {
        if (!(l.partitionStatus || []).some((p) => p.partition === partition)) {
          rows.push(el('tr', {'data-listener': id, 'data-partition': partition},
              cell('Partition', partition, true, 'partition'),
              cell('Owner', lease.owner || 'nobody', false, 'owner'),
              cell('State', badge(lease.owner ? 'owned by another member' : 'unowned', lease.owner ? 'ok' : 'warn'),
                  false, 'state'),
              cell('Checkpoint LSN', '—', true, 'checkpoint'), cell('Position', '—', true, 'position'),
              cell('Head next LSN', '—', true, 'headNextLsn'), cell('Lag (records)', '—', true, 'lagRecords'),
              cell('Lag (time)', '—', true, 'lagTime'), el('td', {'data-label': 'Lag history'})));
        }
      }
      const actions = [];
      if (state.writable) {
        const paused = l.state === 'PAUSED';
        actions.push(el('button', {type: 'button', class: 'write', 'data-action': paused ? 'resume' : 'pause',
          onclick: () => listenerAction(id, paused ? 'resume' : 'pause')}, paused ? 'Resume' : 'Pause'));
      }
      sections.push(el('section', {class: 'listener', 'data-listener': id},
          el('h3', {}, id, ' ', badge(l.state.toLowerCase(), listenerStateKind(l.state))),
          el('p', {class: 'meta'}, 'stream ' + l.stream + ' · checkpoint mode ' + l.checkpointMode.toLowerCase()
              + ', checkpoint owner ' + l.checkpointOwner
              + (l.group ? ' · group ' + l.group.group + ', this instance ' + l.group.instanceId + ', '
                  + l.group.members + ' member' + (l.group.members === 1 ? '' : 's') : '')
              + ' · partitions here: ' + l.partitions),
          el('div', {class: 'actions'}, actions),
          el('div', {class: 'table-wrap'}, el('table', {},
              el('thead', {}, el('tr', {}, ['Partition', 'Owner', 'State', 'Checkpoint LSN', 'Position', 'Head next LSN',
                'Lag (records)', 'Lag (time)', 'Lag history'].map((h) => el('th', {}, h)))),
              el('tbody', {}, rows)))));
    }
    list.replaceChildren(...(sections.length ? sections : [el('p', {}, 'No listeners run in this application.')]));
  }

  async function listenerAction(id, action) {
    if (!confirm((action === 'pause' ? 'Pause' : 'Resume') + ' listener ' + id + '?')) return;
    try {
      await post(ENDPOINT + '/listeners/' + encodeURIComponent(id), {action});
      $('status').textContent = 'Listener ' + id + ': ' + action + ' requested.';
    } catch (e) {
      $('status').textContent = 'Listener ' + id + ': ' + action + ' failed (' + e.message + ').';
    }
  }

  // ------------------------------------------------------------------ one partition's segments

  async function openSegments(stream, partition, fromLsn) {
    state.selected = {stream, partition, fromLsn};
    const panel = $('segments');
    panel.hidden = false;
    $('segments-title').textContent = 'Segments of ' + stream + ' / partition ' + partition;
    renderSegmentActions();
    $('action-result').textContent = '';
    await loadSegments();
    panel.scrollIntoView({block: 'start'});
    loadFolder(stream, partition);
  }

  async function loadSegments() {
    const sel = state.selected;
    if (!sel) return;
    let page;
    try {
      page = await getJson(partitionUrl(sel.stream, sel.partition) + '/segments?fromLsn=' + sel.fromLsn
          + '&limit=' + SEGMENT_PAGE);
    } catch (e) {
      $('segments-summary').textContent = 'Cannot list the segments: ' + e.message;
      return;
    }
    if (page.error) {
      $('segments-summary').textContent = 'Cannot list the segments: ' + page.error;
      return;
    }
    sel.page = page;
    const pending = page.pendingRetention && Number(page.pendingRetention.beforeLsn) > Number(page.oldestLsn)
        ? Number(page.pendingRetention.beforeLsn) : null;
    $('segments-summary').textContent = page.created === false ? 'The partition has no head yet.'
        : 'LSN ' + page.oldestLsn + ' (retention floor) to ' + page.nextLsn + ' (next) · '
          + page.reachableSegmentCount + ' reachable segments · applied retention version '
          + page.appliedRetentionVersion + ' · '
          + (pending !== null ? 'requested retention below LSN ' + pending + ', not applied yet'
            : 'no retention request pending') + ' · showing ' + page.segments.length + ' from LSN '
          + (page.segments.length ? page.segments[0].baseLsn : page.fromLsn) + (page.hasMore ? ' (more follow)' : '');
    drawStrip(page, pending);
    const rows = page.segments.map((s) => {
      const doomed = pending !== null && Number(s.lastLsn) < pending;
      return el('tr', {'data-base-lsn': s.baseLsn, class: doomed ? 'doomed' : null},
          cell('Base LSN', s.baseLsn, true, 'baseLsn'), cell('Last LSN', s.lastLsn, true, 'lastLsn'),
          cell('Records', s.recordCount, true, 'recordCount'), cell('Size', bytes(s.sizeBytes), true, 'sizeBytes'),
          cell('Writer epoch', s.writerEpoch, true, 'writerEpoch'),
          cell('Newest record', new Date(s.maxTimestamp).toLocaleString(), false, 'maxTimestamp'),
          cell('State', doomed ? badge('below requested floor: reclaim deletes after trim', 'warn')
              : badge('reachable', 'ok'), false, 'state'));
    });
    $('segments-table').tBodies[0].replaceChildren(...rows);
    $('segments-next').disabled = !page.hasMore;
    $('segments-first').disabled = Number(sel.fromLsn) === 0;
  }

  function drawStrip(page, pending) {
    const box = $('segments-strip');
    const segments = page.segments;
    if (!segments.length) {
      box.replaceChildren(el('p', {}, 'No reachable segments.'));
      return;
    }
    const lo = Number(segments[0].baseLsn);
    const hi = Number(segments[segments.length - 1].lastLsn) + 1;
    const w = 1000;
    const x = (lsn) => ((lsn - lo) / Math.max(1, hi - lo)) * w;
    const nodes = segments.map((s) => {
      const doomed = pending !== null && Number(s.lastLsn) < pending;
      const x0 = x(Number(s.baseLsn));
      const width = Math.max(1, x(Number(s.lastLsn) + 1) - x0 - 1);
      return svg('rect', {x: x0.toFixed(1), y: 14, width: width.toFixed(1), height: 36, class: doomed ? 'doomed' : 'reachable'},
          svg('title', {}, 'LSN ' + s.baseLsn + '–' + s.lastLsn + ', ' + s.recordCount + ' records, ' + bytes(s.sizeBytes)
              + (doomed ? ', below the requested retention floor' : '')));
    });
    nodes.push(svg('text', {x: 2, y: 10}, 'LSN ' + lo));
    nodes.push(svg('text', {x: w - 2, y: 10, 'text-anchor': 'end'}, 'LSN ' + hi));
    const floor = Number(page.oldestLsn);
    if (floor >= lo && floor <= hi) {
      nodes.push(svg('line', {x1: x(floor), x2: x(floor), y1: 12, y2: 60, class: 'floor'}));
      nodes.push(svg('text', {x: x(floor) + 3, y: 62}, 'retention floor ' + floor));
    }
    if (pending !== null && pending >= lo && pending <= hi) {
      nodes.push(svg('line', {x1: x(pending), x2: x(pending), y1: 12, y2: 60, class: 'floor', 'stroke-dasharray': '4 3'}));
      nodes.push(svg('text', {x: x(pending) + 3, y: 70}, 'requested floor ' + pending));
    }
    box.replaceChildren(svg('svg', {viewBox: '0 0 ' + w + ' 72', preserveAspectRatio: 'none', role: 'img',
      'aria-label': segments.length + ' segments from LSN ' + lo + ' to ' + hi}, ...nodes));
  }

  // The segment folder holds reachable segments and those reclaim will delete (trimmed by
  // retention, or never committed). The difference is what reclaim will remove.
  async function loadFolder(stream, partition) {
    const target = $('segments-folder');
    target.textContent = 'Counting the objects in the segment folder…';
    try {
      const detail = await getJson(partitionUrl(stream, partition));
      const sel = state.selected;
      if (!sel || sel.stream !== stream || sel.partition !== partition) return;
      const folder = detail.segmentObjects;
      if (!folder) {
        target.textContent = detail.error ? 'Cannot list the segment folder: ' + detail.error : '';
        return;
      }
      const reachable = Number(detail.reachableSegmentCount || 0);
      const extra = Math.max(0, Number(folder.count) - reachable);
      target.textContent = 'Segment folder: ' + folder.count + (folder.truncated ? '+' : '') + ' objects, '
          + bytes(folder.bytes) + '. ' + (extra > 0
            ? extra + ' of them are not reachable (trimmed by retention or never committed): reclaim deletes them once they are older than its delete delay.'
            : 'Every object is reachable: reclaim has nothing to delete.');
    } catch (e) {
      target.textContent = 'Cannot list the segment folder: ' + e.message;
    }
  }

  // The write actions of the open partition exist only while the endpoint's access is unrestricted.
  function renderSegmentActions() {
    const box = $('segments-actions');
    const shown = box.childElementCount > 0;
    if (state.writable && state.selected && !shown) {
      box.replaceChildren(
          el('label', {}, 'Retain from LSN ', el('input', {id: 'retention-lsn', type: 'number', min: '0', step: '1',
            inputmode: 'numeric'})),
          el('button', {type: 'button', class: 'write', id: 'request-retention', onclick: requestRetention},
              'Request retention'),
          el('button', {type: 'button', class: 'write', id: 'reclaim-now', onclick: reclaimNow}, 'Reclaim now'));
    } else if ((!state.writable || !state.selected) && shown) {
      box.replaceChildren();
    }
  }

  async function requestRetention() {
    const sel = state.selected;
    const raw = $('retention-lsn').value.trim();
    if (!sel || !/^\d+$/.test(raw)) {
      $('action-result').textContent = 'Enter the first LSN to keep (a whole number).';
      return;
    }
    if (!confirm('Request retention of ' + sel.stream + ' partition ' + sel.partition + ' below LSN ' + raw
        + '? Records below it become unreadable.')) return;
    try {
      const r = await post(partitionUrl(sel.stream, sel.partition) + '/retention', {beforeLsn: Number(raw)});
      $('action-result').textContent = 'Retention requested below LSN ' + r.request.beforeLsn + ' ('
          + r.request.outcome.toLowerCase() + ')' + (r.applied ? ', applied: oldest LSN now ' + r.applied.oldestLsn
            : ', to be applied by the partition\'s writer') + '.';
    } catch (e) {
      $('action-result').textContent = 'Retention request failed: ' + e.message;
    }
    await loadSegments();
  }

  async function reclaimNow() {
    const sel = state.selected;
    if (!sel || !confirm('Run a reclaim pass of ' + sel.stream + ' partition ' + sel.partition + ' now?')) return;
    try {
      const r = await post(partitionUrl(sel.stream, sel.partition) + '/reclaim', {});
      $('action-result').textContent = 'Reclaim deleted ' + r.result.deletedObjects + ' objects ('
          + bytes(r.result.deletedBytes) + ')' + (r.result.hasMore ? '; more remain' : '') + '.';
    } catch (e) {
      $('action-result').textContent = 'Reclaim failed: ' + e.message;
    }
    loadFolder(sel.stream, sel.partition);
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('segments-close').addEventListener('click', () => {
      state.selected = null;
      $('segments').hidden = true;
      renderSegmentActions();
    });
    $('segments-first').addEventListener('click', () => { state.selected.fromLsn = 0; loadSegments(); });
    $('segments-next').addEventListener('click', () => {
      if (state.selected.page) { state.selected.fromLsn = state.selected.page.nextFromLsn; loadSegments(); }
    });
    refresh();
  });
})();
