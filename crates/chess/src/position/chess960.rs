//! The 960 start positions of Chess960 by their standard (Scharnagl) numbers.

use super::fen::{CastlingMode, CastlingToken, Setup};
use super::Position;
use crate::{Color, File, Piece, Role, Square};

/// Knight placements among the five squares left after bishops and queen, by number.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank of start position `n`: bishops on opposite colours, then the queen,
/// the knights, and rook-king-rook on the three files left.
fn back_rank(n: u32) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    rank[(n % 4) * 2] = Some(Role::Bishop);
    n /= 4;
    let free = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&i| rank[i].is_none()).collect()
    };
    rank[free(&rank)[n % 6]] = Some(Role::Queen);
    n /= 6;
    let (a, b) = KNIGHTS[n];
    let f = free(&rank);
    rank[f[a]] = Some(Role::Knight);
    rank[f[b]] = Some(Role::Knight);
    let f = free(&rank);
    rank[f[0]] = Some(Role::Rook);
    rank[f[1]] = Some(Role::King);
    rank[f[2]] = Some(Role::Rook);
    rank.map(|r| r.expect("all eight files are filled"))
}

impl Position {
    /// Chess960 start position number `n` (0..960, 518 being the standard start), in
    /// Chess960 mode with full castling rights; `None` for `n >= 960`.
    ///
    /// ```
    /// use sable_chess::Position;
    /// assert_eq!(Position::chess960_start(0).unwrap().fen(),
    ///            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// assert!(Position::chess960_start(960).is_none());
    /// ```
    pub fn chess960_start(n: u32) -> Option<Position> {
        if n >= 960 {
            return None;
        }
        let roles = back_rank(n);
        let mut board = [None; 64];
        for (file, role) in roles.into_iter().enumerate() {
            for (color, back, pawns) in [(Color::White, 0, 8), (Color::Black, 56, 48)] {
                board[back + file] = Some(Piece::new(color, role));
                board[pawns + file] = Some(Role::Pawn.of(color));
            }
        }
        let rook_files: Vec<File> = (0..8u8)
            .filter(|&f| roles[f as usize] == Role::Rook)
            .filter_map(File::new)
            .collect();
        let castling = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|c| {
                rook_files
                    .iter()
                    .rev()
                    .map(move |&f| (c, CastlingToken::File(f)))
            })
            .collect();
        let setup = Setup {
            board,
            turn: Color::White,
            castling,
            ep_square: None::<Square>,
            halfmoves: 0,
            fullmoves: 1,
        };
        Some(
            Position::from_setup(&setup, CastlingMode::Chess960)
                .expect("start positions are legal"),
        )
    }
}
