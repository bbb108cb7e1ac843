// The page of `sable serve`: a chessground board, chessops for the rules in the
// browser, and a WebSocket to this page's own engine session on the server. Two modes:
// play against a level, and analysis (live lines, a move tree with variations, the
// server's game review). The game in play is kept in localStorage so that a reload
// keeps it.

import { Chessground } from 'chessground';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen, INITIAL_FEN } from 'chessops/fen';
import { chessgroundDests } from 'chessops/compat';
import { makeSan } from 'chessops/san';
import { parseUci, makeUci, makeSquare } from 'chessops/util';

const $ = (id) => document.getElementById(id);
const STORE_GAME = 'sable.game';
const STORE_PREFS = 'sable.prefs';

// ---------------------------------------------------------------- messages and socket

function showMessage(text) {
  $('message-text').textContent = text;
  $('message').hidden = false;
}
function clearMessage() {
  $('message').hidden = true;
}
$('message-close').onclick = clearMessage;

let socket = null;
let nextId = 1;
let maxText = 1 << 20;
let eloRange = [1350, 2850];
const queue = [];
let reconnectDelay = 500;

function connect() {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
  socket = new WebSocket(url);
  socket.onopen = () => {
    reconnectDelay = 500;
    $('conn').textContent = 'engine connected';
    $('conn').className = 'ok';
    while (queue.length) socket.send(queue.shift());
  };
  socket.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      showMessage('the server sent something that is not JSON');
      return;
    }
    onServerMessage(msg);
  };
  socket.onclose = () => {
    $('conn').textContent = 'engine disconnected, reconnecting…';
    $('conn').className = 'bad';
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 8000);
  };
}

function send(obj) {
  const text = JSON.stringify(obj);
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
  else queue.push(text);
}

function onServerMessage(msg) {
  switch (msg.t) {
    case 'hello':
      maxText = msg.max_text;
      eloRange = msg.elo;
      onReady();
      break;
    case 'error':
      showMessage(msg.message);
      onError(msg);
      break;
    case 'bestmove':
      onBestMove(msg);
      break;
    case 'draw':
      onDrawAnswer(msg);
      break;
    case 'analysing':
      if (msg.id === analysis.requestId) {
        analysis.opening = msg.opening;
        renderOpening();
      }
      break;
    case 'info':
      onInfo(msg);
      break;
    case 'done':
      break;
    case 'loaded':
      onLoaded(msg);
      break;
    case 'progress':
      if (msg.id === analysis.reviewId) $('review-progress').textContent = `reviewing: ${msg.done}/${msg.total} positions`;
      break;
    case 'review':
      onReview(msg);
      break;
    case 'cancelled':
      if (msg.id === analysis.reviewId) {
        $('review-progress').textContent = 'review stopped';
        analysis.reviewId = null;
        $('review').disabled = false;
      }
      break;
  }
}

// ---------------------------------------------------------------- rules helpers

function setupOf(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) throw new Error('bad FEN: ' + fen);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error('impossible position: ' + fen);
  return pos.value;
}

// The position after `moves` (UCI) from `fen`, or null when a move is not legal.
function replay(fen, moves) {
  const pos = setupOf(fen);
  for (const u of moves) {
    const m = parseUci(u);
    if (!m || !pos.isLegal(m)) return null;
    pos.play(m);
  }
  return pos;
}

function colorName(c) {
  return c === 'white' ? 'White' : 'Black';
}

function isPromotion(pos, orig, dest) {
  const piece = pos.board.get(orig);
  if (!piece || piece.role !== 'pawn') return false;
  const rank = dest >> 3;
  return rank === 7 || rank === 0;
}

function squareOf(key) {
  return (key.charCodeAt(0) - 97) + 8 * (key.charCodeAt(1) - 49);
}

function lastMoveOf(uci) {
  return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : undefined;
}

// ---------------------------------------------------------------- board

const cg = Chessground($('board'), {
  fen: INITIAL_FEN,
  movable: { free: false, showDests: true, events: { after: (orig, dest) => onBoardMove(orig, dest) } },
  premovable: { enabled: true },
  draggable: { showGhost: true },
  highlight: { lastMove: true, check: true },
});

let pendingPromotion = null;

// Chessground keeps the board's position on the screen from its last resize or scroll;
// clocks and messages that come and go move the board, so it is measured again at each
// press, before chessground reads it.
for (const type of ['mousedown', 'touchstart']) {
  $('board').addEventListener(type, () => cg.state.dom.bounds.clear(), { capture: true, passive: true });
}

// A move made on the board: a promotion first asks which piece.
function onBoardMove(orig, dest) {
  const pos = mode === 'play' ? game.pos : analysis.node.pos;
  if (isPromotion(pos, squareOf(orig), squareOf(dest))) {
    askPromotion(orig, dest, pos.turn);
  } else if (mode === 'play') {
    playerMove(orig + dest);
  } else {
    analysisMove(orig + dest);
  }
}

function askPromotion(orig, dest, color) {
  const box = $('promotion');
  box.innerHTML = '';
  for (const role of ['queen', 'knight', 'rook', 'bishop']) {
    const p = document.createElement('piece');
    p.className = `${color} ${role}`;
    p.dataset.role = role;
    p.title = role;
    p.onclick = (e) => {
      e.stopPropagation();
      box.hidden = true;
      const letter = role === 'knight' ? 'n' : role[0];
      const uci = orig + dest + letter;
      if (mode === 'play') playerMove(uci);
      else analysisMove(uci);
    };
    box.appendChild(p);
  }
  box.onclick = () => {
    // No choice: the move is not made.
    box.hidden = true;
    pendingPromotion = null;
    if (mode === 'play') renderPlay();
    else renderAnalysis();
  };
  pendingPromotion = { orig, dest };
  box.hidden = false;
}

// ---------------------------------------------------------------- sound

let audio = null;
function beep(capture) {
  if (!$('sound').checked) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = capture ? 330 : 520;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.12);
  } catch {
    // No audio: the game goes on in silence.
  }
}

// ---------------------------------------------------------------- modes

let mode = 'play';

function setMode(m) {
  mode = m;
  $('tab-play').classList.toggle('active', m === 'play');
  $('tab-analysis').classList.toggle('active', m === 'analysis');
  $('play-panel').hidden = m !== 'play';
  $('analysis-panel').hidden = m !== 'analysis';
  $('evalbar').hidden = m !== 'analysis';
  $('promotion').hidden = true;
  if (location.hash !== '#' + m) history.replaceState(null, '', '#' + m);
  if (m === 'play') {
    // The server answers one request at a time: a review would hold up the engine's moves.
    forgetReview();
    send({ t: 'stop' });
    analysis.requestId = null;
    // The analysis arrow is not a hint in a game.
    cg.setAutoShapes([]);
    renderPlay();
  } else {
    setClockVisibility(false);
    renderAnalysis();
    requestAnalysis();
  }
}
$('tab-play').onclick = () => setMode('play');
$('tab-analysis').onclick = () => setMode('analysis');

// ---------------------------------------------------------------- play

// The game against the engine; saved after every change.
let game = null;

function fillLevels() {
  const sel = $('level');
  sel.innerHTML = '';
  const levels = [];
  for (let e = eloRange[0]; e < eloRange[1]; e += 150) levels.push(e);
  levels.push(eloRange[1]);
  for (const e of levels) {
    const o = document.createElement('option');
    o.value = String(e);
    o.textContent = `Elo ${e}`;
    sel.appendChild(o);
  }
  const full = document.createElement('option');
  full.value = 'full';
  full.textContent = 'Full strength';
  sel.appendChild(full);
  const prefs = loadPrefs();
  if (prefs.level) sel.value = prefs.level;
  if (prefs.side) $('side').value = prefs.side;
  if (prefs.clock !== undefined) $('clock').value = prefs.clock;
  $('sound').checked = !!prefs.sound;
}

function loadPrefs() {
  try {
    return JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
  } catch {
    return {};
  }
}

function savePrefs() {
  localStorage.setItem(STORE_PREFS, JSON.stringify({
    level: $('level').value, side: $('side').value, clock: $('clock').value, sound: $('sound').checked,
  }));
}
$('sound').onchange = savePrefs;

$('setup').onsubmit = (e) => {
  e.preventDefault();
  savePrefs();
  let side = $('side').value;
  if (side === 'random') side = Math.random() < 0.5 ? 'white' : 'black';
  const level = $('level').value;
  const clockText = $('clock').value;
  let clock = null;
  if (clockText) {
    const [min, inc] = clockText.split('+').map(Number);
    clock = { initial: min * 60000, inc: inc * 1000 };
  }
  startGame({ player: side, elo: level === 'full' ? null : Number(level), clock, fen: INITIAL_FEN });
};

function startGame({ player, elo, clock, fen }) {
  game = {
    fen, player, elo, clock,
    moves: [], sans: [],
    times: clock ? [clock.initial, clock.initial] : null,
    turnStart: Date.now(),
    result: null, reason: null,
    date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
  };
  clearMessage();
  resumeGame();
}

// Brings a loaded or new game onto the board and asks for the engine's move if due.
function resumeGame() {
  game.pos = replay(game.fen, game.moves);
  game.pendingId = null;
  game.view = null;
  if (!game.pos) {
    showMessage('the saved game could not be replayed; it was discarded');
    localStorage.removeItem(STORE_GAME);
    game = null;
    renderPlay();
    return;
  }
  cg.set({ orientation: game.player });
  saveGame();
  renderPlay();
  if (!game.result && game.pos.turn !== game.player) requestEngineMove();
}

function saveGame() {
  if (!game) return;
  const { pos, pendingId, view, ...kept } = game;
  localStorage.setItem(STORE_GAME, JSON.stringify(kept));
}

function engineColor() {
  return game.player === 'white' ? 'black' : 'white';
}

function clockMsg() {
  if (!game.clock) return undefined;
  const t = currentTimes();
  return { wtime: Math.max(0, Math.round(t[0])), btime: Math.max(0, Math.round(t[1])), winc: game.clock.inc, binc: game.clock.inc };
}

function requestEngineMove() {
  const id = nextId++;
  game.pendingId = id;
  send({ t: 'play', id, fen: game.fen, moves: game.moves, elo: game.elo, clock: clockMsg() });
  renderStatus();
}

function onBestMove(msg) {
  if (!game || msg.id !== game.pendingId || game.result) return;
  game.pendingId = null;
  applyMove(msg.uci);
  // A premove waits for this moment.
  if (!game.result) setTimeout(() => cg.playPremove(), 0);
}

function playerMove(uci) {
  if (!game || game.result || game.pos.turn !== game.player) {
    renderPlay();
    return;
  }
  if (game.view !== null) game.view = null;
  if (!applyMove(uci)) return;
  if (!game.result) requestEngineMove();
}

// Plays a move of either side, with clocks, end of game, save; false when illegal.
function applyMove(uci) {
  const m = parseUci(uci);
  if (!m || !game.pos.isLegal(m)) {
    showMessage(`illegal move ${uci}`);
    renderPlay();
    return false;
  }
  const mover = game.pos.turn;
  const capture = game.pos.board.occupied.has(m.to);
  if (game.times) {
    const t = currentTimes();
    const i = mover === 'white' ? 0 : 1;
    t[i] += game.clock.inc;
    game.times = t;
  }
  game.turnStart = Date.now();
  game.sans.push(makeSan(game.pos, m));
  game.pos.play(m);
  game.moves.push(uci);
  beep(capture);
  checkEnd();
  saveGame();
  renderPlay();
  return true;
}

// The clocks now: the side to move has used the time since its turn began.
function currentTimes() {
  const t = game.times.slice();
  if (!game.result && game.moves.length >= 2) {
    const i = game.pos.turn === 'white' ? 0 : 1;
    t[i] -= Date.now() - game.turnStart;
  }
  return t;
}

function fenKey(pos) {
  return makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
}

function checkEnd() {
  const pos = game.pos;
  if (pos.isCheckmate()) {
    endGame(pos.turn === 'white' ? '0-1' : '1-0', `${colorName(pos.turn === 'white' ? 'black' : 'white')} mates`);
  } else if (pos.isStalemate()) {
    endGame('1/2-1/2', 'stalemate');
  } else if (pos.isInsufficientMaterial()) {
    endGame('1/2-1/2', 'insufficient material');
  } else if (pos.halfmoves >= 100) {
    endGame('1/2-1/2', 'fifty-move rule');
  } else {
    const keys = {};
    const p = setupOf(game.fen);
    keys[fenKey(p)] = 1;
    for (const u of game.moves) {
      p.play(parseUci(u));
      const k = fenKey(p);
      keys[k] = (keys[k] || 0) + 1;
      if (keys[k] >= 3) {
        endGame('1/2-1/2', 'threefold repetition');
        return;
      }
    }
  }
}

function endGame(result, reason) {
  game.result = result;
  game.reason = reason;
  game.pendingId = null;
  cg.cancelPremove();
  send({ t: 'stop' });
  saveGame();
  renderPlay();
}

$('resign').onclick = () => {
  if (!game || game.result) return;
  endGame(game.player === 'white' ? '0-1' : '1-0', `${colorName(game.player)} resigns`);
};

$('draw').onclick = () => {
  if (!game || game.result) return;
  if (game.pendingId) {
    showMessage('wait for the engine\'s move before offering a draw');
    return;
  }
  const id = nextId++;
  game.drawId = id;
  $('status').textContent = 'draw offered…';
  send({ t: 'draw', id, fen: game.fen, moves: game.moves, engine: engineColor() });
};

function onDrawAnswer(msg) {
  if (!game || msg.id !== game.drawId || game.result) return;
  if (msg.accepted) endGame('1/2-1/2', 'draw agreed');
  else {
    renderPlay();
    $('status').textContent = `Sable declines the draw (${msg.eval.text})`;
  }
}

$('takeback').onclick = () => {
  if (!game || game.result) return;
  // Back to the player's last move: the engine's reply too, if it came.
  let n = game.pos.turn === game.player ? 2 : 1;
  // Sable's first move as White is not the player's to take back.
  if (game.moves.length < n + (game.player === 'black' ? 1 : 0)) return;
  while (n > 0 && game.moves.length > 0) {
    game.moves.pop();
    game.sans.pop();
    n--;
  }
  if (game.pendingId) send({ t: 'stop' });
  cg.cancelPremove();
  game.turnStart = Date.now();
  resumeGame();
};

$('flip').onclick = () => cg.toggleOrientation();
$('new-game').onclick = () => {
  if (game && !game.result && game.moves.length > 1 && !confirm('Abandon this game?')) return;
  send({ t: 'stop' });
  game = null;
  localStorage.removeItem(STORE_GAME);
  renderPlay();
};

function pgnOf(tags, sans, startFen, result) {
  const lines = [];
  const all = { ...tags };
  if (startFen !== INITIAL_FEN) {
    all.SetUp = '1';
    all.FEN = startFen;
  }
  for (const [k, v] of Object.entries(all)) lines.push(`[${k} "${String(v).replace(/[\\"]/g, '\\$&')}"]`);
  const start = setupOf(startFen);
  let number = start.fullmoves;
  let white = start.turn === 'white';
  const words = [];
  sans.forEach((san, i) => {
    if (white) words.push(`${number}. ${san}`);
    else words.push(i === 0 ? `${number}... ${san}` : san);
    if (!white) number++;
    white = !white;
  });
  words.push(result);
  return lines.join('\n') + '\n\n' + wrap(words.join(' ')) + '\n';
}

function wrap(text) {
  const out = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + w.length + 1 > 79) {
      out.push(line);
      line = w;
    } else line = line ? line + ' ' + w : w;
  }
  if (line) out.push(line);
  return out.join('\n');
}

function levelName(elo) {
  return elo ? `Sable (Elo ${elo})` : 'Sable (full strength)';
}

function gamePgn() {
  const white = game.player === 'white' ? 'You' : levelName(game.elo);
  const black = game.player === 'black' ? 'You' : levelName(game.elo);
  const tags = {
    Event: 'Game against Sable', Site: location.host, Date: game.date, Round: '-',
    White: white, Black: black, Result: game.result || '*',
  };
  if (game.clock) tags.TimeControl = `${game.clock.initial / 1000}+${game.clock.inc / 1000}`;
  if (game.reason) tags.Termination = game.reason;
  return pgnOf(tags, game.sans, game.fen, game.result || '*');
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

$('pgn-save').onclick = () => {
  if (!game) return;
  const text = gamePgn();
  $('pgn-out').textContent = text;
  $('pgn-out').hidden = false;
  download(`sable-${game.date}.pgn`, text);
};

$('analyse-game').onclick = () => {
  if (!game) return;
  loadIntoAnalysis(game.fen, game.moves, { White: game.player === 'white' ? 'You' : levelName(game.elo), Black: game.player === 'black' ? 'You' : levelName(game.elo), Result: game.result || '*' });
  setMode('analysis');
};

function renderPlay() {
  const has = !!game;
  $('setup').hidden = has;
  $('game').hidden = !has;
  if (!has) {
    setClockVisibility(false);
    cg.set({ fen: INITIAL_FEN, lastMove: undefined, check: false, movable: { color: undefined, dests: new Map() } });
    return;
  }
  $('game-info').textContent = `You play ${colorName(game.player)} against ${levelName(game.elo)}` +
    (game.clock ? `, ${game.clock.initial / 60000}+${game.clock.inc / 1000}` : ', no clock');
  renderPlayMoves();
  const viewing = game.view !== null && game.view !== undefined && game.view < game.moves.length;
  const pos = viewing ? replay(game.fen, game.moves.slice(0, game.view)) : game.pos;
  const live = !viewing && !game.result;
  cg.set({
    fen: makeFen(pos.toSetup()),
    turnColor: pos.turn,
    lastMove: lastMoveOf(viewing ? game.moves[game.view - 1] : game.moves[game.moves.length - 1]),
    check: pos.isCheck() ? pos.turn : false,
    movable: {
      color: live ? game.player : undefined,
      dests: live && pos.turn === game.player ? chessgroundDests(pos) : new Map(),
    },
    premovable: { enabled: live },
  });
  setClockVisibility(!!game.clock);
  renderClocks();
  renderStatus();
  $('takeback').disabled = !!game.result || game.moves.length === 0;
  $('resign').disabled = !!game.result;
  $('draw').disabled = !!game.result;
}

function renderStatus() {
  if (!game) return;
  let s;
  if (game.result) s = `${game.result} · ${game.reason}`;
  else if (game.pos.turn === game.player) s = 'Your move';
  else s = 'Sable is thinking…';
  $('status').textContent = s;
  $('status').dataset.result = game.result || '';
}

function renderPlayMoves() {
  const box = $('play-moves');
  box.innerHTML = '';
  const start = setupOf(game.fen);
  let number = start.fullmoves;
  let white = start.turn === 'white';
  game.sans.forEach((san, i) => {
    if (white || i === 0) {
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = white ? `${number}.` : `${number}...`;
      box.appendChild(n);
    }
    const span = document.createElement('span');
    span.className = 'mv';
    span.textContent = san;
    span.dataset.ply = String(i + 1);
    const current = game.view === null || game.view === undefined ? game.moves.length : game.view;
    if (i + 1 === current) span.classList.add('active');
    span.onclick = () => {
      game.view = i + 1 === game.moves.length ? null : i + 1;
      renderPlay();
    };
    box.appendChild(span);
    if (!white) number++;
    white = !white;
  });
  box.scrollTop = box.scrollHeight;
}

function setClockVisibility(on) {
  $('clock-top').hidden = !on;
  $('clock-bottom').hidden = !on;
}

function formatTime(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const tenths = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
  return `${m}:${String(s % 60).padStart(2, '0')}${tenths}`;
}

function renderClocks() {
  if (!game || !game.clock) return;
  const t = currentTimes();
  const top = cg.state.orientation === 'white' ? 'black' : 'white';
  for (const [el, color] of [[$('clock-top'), top], [$('clock-bottom'), top === 'white' ? 'black' : 'white']]) {
    const ms = t[color === 'white' ? 0 : 1];
    el.textContent = formatTime(ms);
    el.classList.toggle('running', !game.result && game.pos.turn === color && game.moves.length >= 2);
    el.classList.toggle('low', ms < 10000);
  }
  if (!game.result && mode === 'play') {
    const i = game.pos.turn === 'white' ? 0 : 1;
    if (t[i] <= 0) {
      game.times = t;
      endGame(game.pos.turn === 'white' ? '0-1' : '1-0', `${colorName(game.pos.turn)} loses on time`);
    }
  }
}
setInterval(() => {
  if (mode === 'play' && game && game.clock && !game.result) renderClocks();
}, 100);

// ---------------------------------------------------------------- analysis

let nodeIds = 0;
function makeNode(parent, uci, san, pos) {
  return { id: ++nodeIds, parent, uci, san, pos, children: [], ply: parent ? parent.ply + 1 : 0 };
}

const analysis = {
  root: null,
  node: null,
  tags: {},
  requestId: null,
  reviewId: null,
  reviewPgn: null,
  pvs: [],
  opening: null,
  review: null,
  loadId: null,
};

// A review belongs to the game it was asked for: when the board gets another game, the
// server stops it (between two positions) rather than finish it first, and its answer,
// if one is already on its way, is ignored.
function forgetReview() {
  if (analysis.reviewId === null) return;
  send({ t: 'stop', review: true });
  analysis.reviewId = null;
  analysis.reviewPgn = null;
  $('review').disabled = false;
  $('review-progress').textContent = 'review stopped';
}

function resetAnalysis(fen) {
  forgetReview();
  const pos = setupOf(fen);
  analysis.root = makeNode(null, null, null, pos);
  analysis.root.fen = fen;
  analysis.root.ply = 0;
  analysis.node = analysis.root;
  analysis.tags = {};
  analysis.review = null;
  $('graph').innerHTML = '';
  $('summary').innerHTML = '';
  $('review-progress').textContent = '';
}
resetAnalysis(INITIAL_FEN);

function pathTo(node) {
  const path = [];
  for (let n = node; n.parent; n = n.parent) path.unshift(n);
  return path;
}

function loadIntoAnalysis(fen, moves, tags, sans) {
  resetAnalysis(fen);
  analysis.tags = tags || {};
  let node = analysis.root;
  for (const u of moves) {
    const pos = node.pos.clone();
    const m = parseUci(u);
    if (!m || !pos.isLegal(m)) break;
    const san = makeSan(pos, m);
    pos.play(m);
    const child = makeNode(node, u, san, pos);
    node.children.push(child);
    node = child;
  }
  analysis.node = analysis.root;
  void sans;
}

function goTo(node) {
  analysis.node = node;
  $('promotion').hidden = true;
  renderAnalysis();
  requestAnalysis();
}

function analysisMove(uci) {
  const node = analysis.node;
  const m = parseUci(uci);
  if (!m || !node.pos.isLegal(m)) {
    showMessage(`illegal move ${uci}`);
    renderAnalysis();
    return;
  }
  let child = node.children.find((c) => c.uci === uci);
  if (!child) {
    const pos = node.pos.clone();
    const san = makeSan(pos, m);
    pos.play(m);
    child = makeNode(node, uci, san, pos);
    node.children.push(child);
  }
  goTo(child);
}

function requestAnalysis() {
  analysis.pvs = [];
  renderPvs();
  if (mode !== 'analysis') return;
  if (!$('engine-on').checked) {
    send({ t: 'stop' });
    analysis.requestId = null;
    return;
  }
  const id = nextId++;
  analysis.requestId = id;
  send({ t: 'analyse', id, fen: analysis.root.fen, moves: pathTo(analysis.node).map((n) => n.uci), multipv: Number($('multipv').value) });
}
$('engine-on').onchange = requestAnalysis;
$('multipv').onchange = requestAnalysis;

function onInfo(msg) {
  if (msg.id !== analysis.requestId) return;
  analysis.pvs[msg.multipv - 1] = msg;
  // A new depth's first line replaces the lines of the last one.
  if (msg.multipv === 1) analysis.pvs.length = 1;
  renderPvs();
}

function renderPvs() {
  const box = $('pvs');
  box.innerHTML = '';
  const best = analysis.pvs[0];
  $('depth').textContent = best ? `depth ${best.depth}` : ($('engine-on').checked && mode === 'analysis' ? 'thinking…' : '');
  for (const pv of analysis.pvs) {
    if (!pv) continue;
    const div = document.createElement('div');
    div.className = 'pv';
    const ev = document.createElement('span');
    ev.className = 'ev';
    ev.textContent = pv.eval.text;
    div.appendChild(ev);
    let number = pv.fullmove;
    let white = pv.white;
    const words = pv.san.slice(0, 12).map((san, i) => {
      let w = san;
      if (white) w = `${number}. ${san}`;
      else if (i === 0) w = `${number}... ${san}`;
      if (!white) number++;
      white = !white;
      return w;
    });
    div.appendChild(document.createTextNode(' ' + words.join(' ')));
    div.onclick = () => pv.pv[0] && analysisMove(pv.pv[0]);
    box.appendChild(div);
  }
  renderEvalBar();
  const shapes = best && best.pv[0] ? [{ orig: best.pv[0].slice(0, 2), dest: best.pv[0].slice(2, 4), brush: 'paleBlue' }] : [];
  if (mode === 'analysis') cg.setAutoShapes(shapes);
}

function renderEvalBar() {
  let win = 50;
  let text = '';
  const best = analysis.pvs[0];
  const node = analysis.node;
  if (best) {
    win = best.eval.win;
    text = best.eval.text;
  } else if (node.eval) {
    win = node.eval.win;
    text = node.eval.text;
  }
  $('evalfill').style.height = `${win}%`;
  $('evaltext').textContent = text;
  $('evalbar').title = text;
}

function renderOpening() {
  const o = analysis.opening;
  $('opening').textContent = o ? `${o.eco} ${o.name}` : '';
}

function renderAnalysis() {
  const node = analysis.node;
  cg.set({
    fen: makeFen(node.pos.toSetup()),
    turnColor: node.pos.turn,
    lastMove: lastMoveOf(node.uci),
    check: node.pos.isCheck() ? node.pos.turn : false,
    movable: { color: node.pos.turn, dests: chessgroundDests(node.pos) },
    premovable: { enabled: false },
  });
  renderTree();
  renderGraphCursor();
  renderOpening();
}

function judgementClass(n) {
  return n.judgement ? n.judgement.toLowerCase() : '';
}

function moveSpan(n) {
  const span = document.createElement('span');
  span.className = 'mv';
  if (n.judgement) span.classList.add(judgementClass(n));
  if (n === analysis.node) span.classList.add('active');
  span.textContent = n.san + (n.symbol || '');
  span.dataset.ply = String(n.ply);
  span.dataset.id = String(n.id);
  if (n.judgement) span.title = n.judgement + (n.best ? ` (best: ${n.best.join(' ')})` : '');
  span.onclick = () => goTo(n);
  return span;
}

function numberText(n, force) {
  const white = n.parent.pos.turn === 'white';
  const number = n.parent.pos.fullmoves;
  if (white) return `${number}.`;
  return force ? `${number}...` : '';
}

// Writes the line that starts with `n` into `box`: each node's first child continues
// the line, the others are variations in parentheses.
function renderLine(box, n, forceNumber) {
  let force = forceNumber;
  while (n) {
    const num = numberText(n, force);
    if (num) {
      const s = document.createElement('span');
      s.className = 'num';
      s.textContent = num;
      box.appendChild(s);
    }
    box.appendChild(moveSpan(n));
    force = false;
    const siblings = n.parent.children;
    if (siblings[0] === n && siblings.length > 1) {
      for (const v of siblings.slice(1)) {
        const div = document.createElement('div');
        div.className = 'var';
        div.appendChild(document.createTextNode('('));
        renderLine(div, v, true);
        div.appendChild(document.createTextNode(')'));
        box.appendChild(div);
      }
      force = true;
    }
    n = n.children[0];
  }
}

function renderTree() {
  const box = $('tree');
  box.innerHTML = '';
  if (analysis.root.children[0]) renderLine(box, analysis.root.children[0], true);
  const active = box.querySelector('.active');
  if (active) active.scrollIntoView({ block: 'nearest' });
}

function mainline() {
  const out = [];
  for (let n = analysis.root.children[0]; n; n = n.children[0]) out.push(n);
  return out;
}

// Loading a FEN or PGN: checked by the server, which reads PGN as `sable analyse` does.
function loadText(text) {
  if (text.length > maxText) {
    showMessage(`the text is ${(text.length / 1e6).toFixed(1)} MB; at most ${maxText / 1048576} MiB of FEN or PGN is accepted (one game, not a database)`);
    return;
  }
  // The server answers one request at a time: a review under way would hold the load up.
  forgetReview();
  const id = nextId++;
  analysis.loadId = id;
  send({ t: 'load', id, text });
}

$('load').onclick = () => loadText($('paste').value);
$('file').onchange = (e) => {
  const f = e.target.files[0];
  if (!f) return;
  if (f.size > maxText) {
    showMessage(`${f.name} is ${(f.size / 1e6).toFixed(1)} MB; at most ${maxText / 1048576} MiB of FEN or PGN is accepted (one game, not a database)`);
    e.target.value = '';
    return;
  }
  f.text().then((t) => loadText(t));
  e.target.value = '';
};

function onLoaded(msg) {
  if (msg.id !== analysis.loadId) return;
  clearMessage();
  loadIntoAnalysis(msg.fen, msg.moves.map((m) => m.uci), msg.tags);
  if (msg.games > 1) showMessage(`the text holds ${msg.games} games; the first is shown`);
  goTo(analysis.root);
}

$('review').onclick = () => {
  const line = mainline();
  if (line.length === 0) {
    showMessage('nothing to review: the game has no moves');
    return;
  }
  const id = nextId++;
  analysis.reviewId = id;
  $('review').disabled = true;
  $('review-progress').textContent = 'reviewing…';
  const pgn = pgnOf({ ...analysis.tags, Result: '*' }, line.map((n) => n.san), analysis.root.fen, '*');
  analysis.reviewPgn = pgn;
  send({ t: 'review', id, pgn });
};

function onReview(msg) {
  if (msg.id !== analysis.reviewId) return;
  analysis.reviewId = null;
  $('review').disabled = false;
  $('review-progress').textContent = 'review done';
  const line = mainline();
  analysis.root.eval = msg.start;
  msg.plies.forEach((p, i) => {
    const n = line[i];
    if (!n || n.uci !== p.uci) return;
    n.eval = p.eval;
    n.judgement = p.judgement;
    n.symbol = p.symbol;
    n.best = p.best;
  });
  analysis.review = msg;
  if (msg.opening) analysis.opening = msg.opening;
  renderGraph();
  renderSummary();
  renderAnalysis();
}

function onError(msg) {
  if (msg.id && msg.id === analysis.reviewId) {
    analysis.reviewId = null;
    $('review').disabled = false;
    $('review-progress').textContent = 'review failed';
  }
  if (game && msg.id && msg.id === game.pendingId) {
    game.pendingId = null;
    renderStatus();
  }
}

const GRAPH_W = 600;
const GRAPH_H = 100;

function renderGraph() {
  const r = analysis.review;
  if (!r) return;
  const wins = [r.start.win, ...r.plies.map((p) => p.eval.win)];
  const n = wins.length - 1;
  const x = (i) => (n === 0 ? 0 : (i / n) * GRAPH_W);
  const y = (w) => GRAPH_H - (w / 100) * GRAPH_H;
  let d = `M0,${GRAPH_H}`;
  wins.forEach((w, i) => (d += ` L${x(i).toFixed(1)},${y(w).toFixed(1)}`));
  d += ` L${GRAPH_W},${GRAPH_H} Z`;
  const colors = { Inaccuracy: '#38a', Mistake: '#c80', Blunder: '#c22' };
  const dots = r.plies
    .map((p, i) => (p.judgement ? `<circle class="judged ${p.judgement.toLowerCase()}" cx="${x(i + 1).toFixed(1)}" cy="${y(p.eval.win).toFixed(1)}" r="4" fill="${colors[p.judgement]}"><title>${p.ply}: ${p.san}${p.symbol} ${p.judgement}</title></circle>` : ''))
    .join('');
  $('graph').innerHTML =
    `<svg id="graph-svg" viewBox="0 0 ${GRAPH_W} ${GRAPH_H}" preserveAspectRatio="none">` +
    `<rect width="${GRAPH_W}" height="${GRAPH_H}" fill="#444"/>` +
    `<path id="graph-area" d="${d}" fill="#eee"/>` +
    `<line x1="0" y1="${GRAPH_H / 2}" x2="${GRAPH_W}" y2="${GRAPH_H / 2}" stroke="#999" stroke-dasharray="4"/>` +
    `<line id="graph-cursor" x1="0" y1="0" x2="0" y2="${GRAPH_H}" stroke="#6a9" stroke-width="2"/>` +
    dots + '</svg>';
  $('graph-svg').onclick = (e) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const i = Math.round(((e.clientX - rect.left) / rect.width) * n);
    const line = mainline();
    goTo(i <= 0 ? analysis.root : line[Math.min(i, line.length) - 1]);
  };
  renderGraphCursor();
}

function renderGraphCursor() {
  const c = $('graph-cursor');
  const r = analysis.review;
  if (!c || !r) return;
  const n = r.plies.length;
  const onMain = analysis.node === analysis.root || mainline().includes(analysis.node);
  const x = onMain && n > 0 ? (analysis.node.ply / n) * GRAPH_W : -10;
  c.setAttribute('x1', x);
  c.setAttribute('x2', x);
}

function renderSummary() {
  const r = analysis.review;
  const names = ['Inaccuracy', 'Mistake', 'Blunder'];
  const plural = ['Inaccuracies', 'Mistakes', 'Blunders'];
  let html = '<table><tr><th></th><th>White</th><th>Black</th></tr>';
  names.forEach((name, j) => {
    html += `<tr class="${name.toLowerCase()}"><th>${plural[j]}</th><td data-side="white">${r.counts[0][j]}</td><td data-side="black">${r.counts[1][j]}</td></tr>`;
  });
  const acc = (a) => (a === null ? '–' : `${Math.round(a)}%`);
  html += `<tr><th>Accuracy</th><td>${acc(r.accuracy[0])}</td><td>${acc(r.accuracy[1])}</td></tr>`;
  html += `<tr><th>ACPL</th><td>${r.acpl[0] ?? '–'}</td><td>${r.acpl[1] ?? '–'}</td></tr></table>`;
  $('summary').innerHTML = html;
}

$('a-flip').onclick = () => cg.toggleOrientation();
$('a-reset').onclick = () => {
  resetAnalysis(INITIAL_FEN);
  goTo(analysis.root);
};

function treePgn() {
  // The whole tree, variations in parentheses.
  const words = [];
  const write = (n, force) => {
    while (n) {
      const num = numberText(n, force);
      words.push(num ? `${num} ${n.san}` : n.san);
      force = false;
      const siblings = n.parent.children;
      if (siblings[0] === n && siblings.length > 1) {
        for (const v of siblings.slice(1)) {
          words.push('(');
          write(v, true);
          words.push(')');
        }
        force = true;
      }
      n = n.children[0];
    }
  };
  if (analysis.root.children[0]) write(analysis.root.children[0], true);
  const result = analysis.tags.Result || '*';
  words.push(result);
  const tags = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', ...analysis.tags, Result: result };
  if (analysis.root.fen !== INITIAL_FEN) {
    tags.SetUp = '1';
    tags.FEN = analysis.root.fen;
  }
  const head = Object.entries(tags).map(([k, v]) => `[${k} "${String(v).replace(/[\\"]/g, '\\$&')}"]`).join('\n');
  return head + '\n\n' + wrap(words.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')')) + '\n';
}

$('a-pgn').onclick = () => {
  const text = treePgn();
  $('a-pgn-out').textContent = text;
  $('a-pgn-out').hidden = false;
  download('sable-analysis.pgn', text);
};

// ---------------------------------------------------------------- keys

document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'TEXTAREA' || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
  if (e.key === 'f') {
    cg.toggleOrientation();
    return;
  }
  if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
  e.preventDefault();
  if (mode === 'analysis') {
    const n = analysis.node;
    if (e.key === 'ArrowLeft' && n.parent) goTo(n.parent);
    else if (e.key === 'ArrowRight' && n.children[0]) goTo(n.children[0]);
    else if (e.key === 'ArrowUp' || e.key === 'Home') goTo(analysis.root);
    else if (e.key === 'ArrowDown' || e.key === 'End') {
      let m = n;
      while (m.children[0]) m = m.children[0];
      goTo(m);
    }
  } else if (game) {
    const len = game.moves.length;
    let v = game.view === null || game.view === undefined ? len : game.view;
    if (e.key === 'ArrowLeft') v = Math.max(0, v - 1);
    else if (e.key === 'ArrowRight') v = Math.min(len, v + 1);
    else if (e.key === 'ArrowUp' || e.key === 'Home') v = 0;
    else v = len;
    game.view = v === len ? null : v;
    renderPlay();
  }
});

// ---------------------------------------------------------------- start

let ready = false;
function onReady() {
  const first = !ready;
  ready = true;
  fillLevels();
  if (first) {
    const saved = localStorage.getItem(STORE_GAME);
    if (saved) {
      try {
        game = JSON.parse(saved);
        resumeGame();
      } catch {
        localStorage.removeItem(STORE_GAME);
        game = null;
      }
    }
    setMode(location.hash === '#analysis' ? 'analysis' : 'play');
  } else {
    // What the old session was doing is gone with it.
    onReconnect();
  }
}

// The server's session is new after a reconnection (its hello, once per session, not
// once per failed attempt): ask again for what was pending.
function onReconnect() {
  if (game && game.pendingId && !game.result) {
    game.pendingId = null;
    const again = () => {
      if (game && !game.result && game.pos.turn !== game.player && !game.pendingId) requestEngineMove();
    };
    setTimeout(again, 0);
  }
  // A review under way died with the old session: the new one starts it over.
  if (analysis.reviewId !== null) {
    $('review-progress').textContent = 'reviewing… (started again after a reconnection)';
    send({ t: 'review', id: analysis.reviewId, pgn: analysis.reviewPgn });
  }
  if (mode === 'analysis') setTimeout(requestAnalysis, 0);
}

// For the browser tests and the curious: what the page knows, read-only.
window.sable = {
  fen: () => makeFen((mode === 'play' && game ? game.pos : analysis.node.pos).toSetup()),
  mode: () => mode,
  game: () => (game ? { moves: game.moves.slice(), sans: game.sans.slice(), result: game.result, reason: game.reason, player: game.player, thinking: !!game.pendingId } : null),
  orientation: () => cg.state.orientation,
  makeSquare,
  makeUci,
};

connect();
