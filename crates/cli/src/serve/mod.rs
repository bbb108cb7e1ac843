//! `sable serve`: a local web server for a board in the browser. It serves one page
//! (the bundle built from `web/`, embedded by [`assets`]) and a WebSocket, `/ws`, where
//! each connection is one session with an engine of its own ([`session`]); `/api/status`
//! tells how many sessions hold an engine, `/third-party` the licences of the bundle.
//!
//! The server runs on tokio (axum); each session's engine runs on a plain thread, since
//! the engine's calls block. A session is counted from its socket's opening until its
//! engine is dropped, so the count says what memory is held.

pub mod assets;
pub mod session;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::json;
use session::{parse_request, Request, SessionConfig};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The largest WebSocket message read at all; past it the socket is closed. Larger than
/// [`session::MAX_TEXT`] so that a text over that limit still gets a clear answer.
pub const MAX_WS_MESSAGE: usize = 16 << 20;

#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    pub max_sessions: usize,
    pub session: SessionConfig,
}

struct AppState {
    config: ServeConfig,
    /// Sessions holding an engine.
    sessions: AtomicUsize,
}

/// Runs the server until the process ends; `on_listening` gets the bound address (the
/// port chosen when 0 was asked).
pub fn serve(config: ServeConfig, on_listening: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let state = Arc::new(AppState {
            config,
            sessions: AtomicUsize::new(0),
        });
        let app = Router::new()
            .route("/", get(|| async { asset("index.html") }))
            .route("/app.js", get(|| async { asset("app.js") }))
            .route("/app.css", get(|| async { asset("app.css") }))
            .route("/third-party", get(|| async { asset("THIRD-PARTY.md") }))
            .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
            .route("/api/status", get(status))
            .route("/ws", get(ws_handler))
            .with_state(state);
        on_listening(addr);
        axum::serve(listener, app)
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

fn asset(name: &str) -> Response {
    match assets::get(name) {
        Some((bytes, mime)) => (
            [
                (header::CONTENT_TYPE, mime),
                // The page comes with the binary: a new binary may bring a new page.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn status(State(state): State<Arc<AppState>>) -> Response {
    let body = json!({
        "sessions": state.sessions.load(Ordering::SeqCst),
        "max_sessions": state.config.max_sessions,
        "version": env!("CARGO_PKG_VERSION"),
    });
    (
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Whether a browser's page comes from this server: a page of another site must not
/// drive the engine through the visitor's browser. Clients that are not browsers send no
/// `Origin`.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
    matches!((origin, host), (Some((_, o)), Some(h)) if o == h)
}

async fn ws_handler(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(state): State<Arc<AppState>>,
) -> Response {
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "a page of another site may not use this engine",
        )
            .into_response();
    }
    ws.max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| run_socket(socket, state))
}

/// Takes one off the session count when the session's engine is gone.
struct Counted(Arc<AppState>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn run_socket(mut socket: WebSocket, state: Arc<AppState>) {
    let open = state.sessions.fetch_add(1, Ordering::SeqCst) + 1;
    let counted = Counted(state.clone());
    let max = state.config.max_sessions;
    if open > max {
        let msg = session::error(
            None,
            format!("too many open sessions ({max}, the server's --max-sessions): close another tab of this page and reload"),
        );
        let _ = socket.send(Message::Text(msg.into())).await;
        let _ = socket.send(Message::Close(None)).await;
        return;
    }
    let (req_tx, req_rx) = std::sync::mpsc::channel::<(u64, Request)>();
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let stops = Arc::new(session::Stops::default());
    let thread = {
        let (config, out, stops) = (state.config.session.clone(), out_tx.clone(), stops.clone());
        std::thread::Builder::new()
            .name("sable-session".into())
            .spawn(move || session::run(config, req_rx, out, stops))
    };
    let thread = match thread {
        Ok(t) => t,
        Err(e) => {
            let msg = session::error(None, format!("cannot start a session: {e}"));
            let _ = socket.send(Message::Text(msg.into())).await;
            return;
        }
    };
    let hello = json!({
        "t": "hello",
        "version": env!("CARGO_PKG_VERSION"),
        "max_text": session::MAX_TEXT,
        "elo": [sable_engine::strength::UCI_ELO.0, sable_engine::strength::UCI_ELO.2],
    });
    let _ = out_tx.send(hello.to_string());
    // The thread holds the only other sender: the channel closes when it ends.
    drop(out_tx);
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => match parse_request(text.as_str()) {
                    Ok(request) => {
                        if matches!(request, Request::Stop { review: true }) {
                            stops.stop();
                        }
                        if req_tx.send((stops.seen(), request)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let msg = session::error(None, e);
                        if socket.send(Message::Text(msg.into())).await.is_err() {
                            break;
                        }
                    }
                },
                Some(Ok(Message::Binary(_))) => {
                    let msg = session::error(None, "binary messages are not understood; send JSON text");
                    if socket.send(Message::Text(msg.into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            },
            outgoing = out_rx.recv() => match outgoing {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    // The page is gone: stop what runs, let the thread drop the engine, and count the
    // session closed only once it has.
    stops.stop();
    drop(req_tx);
    drop(out_rx);
    let _ = tokio::task::spawn_blocking(move || {
        let _ = thread.join();
        drop(counted);
    })
    .await;
}
