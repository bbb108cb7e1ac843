//! The page's files, built from `web/` by `npm run build` into `serve/assets/` and
//! committed, so that `cargo build` needs no npm. `THIRD-PARTY.md` there lists the
//! licences of what the bundle holds.

const FILES: &[(&str, &[u8], &str)] = &[
    (
        "index.html",
        include_bytes!("assets/index.html"),
        "text/html; charset=utf-8",
    ),
    (
        "app.js",
        include_bytes!("assets/app.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "app.css",
        include_bytes!("assets/app.css"),
        "text/css; charset=utf-8",
    ),
    (
        "THIRD-PARTY.md",
        include_bytes!("assets/THIRD-PARTY.md"),
        "text/plain; charset=utf-8",
    ),
];

/// A file's bytes and media type.
pub fn get(name: &str) -> Option<(&'static [u8], &'static str)> {
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, bytes, mime)| (bytes, mime))
}

/// Every file with its size, for `sable serve --list-assets`.
pub fn sizes() -> impl Iterator<Item = (&'static str, usize)> {
    FILES.iter().map(|&(n, b, _)| (n, b.len()))
}
