//! Sable's positions as the prober's (`shakmaty::Chess`): built from the bitboards, so a
//! probe costs no FEN round trip.

use sable_chess::{Color, Position, Role};
use shakmaty::{Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup};
use std::num::NonZeroU32;

/// The prober's copy of `pos`; `None` for a position the tables cannot hold (castling
/// rights) or that the prober refuses.
pub(crate) fn to_shakmaty(pos: &Position) -> Option<Chess> {
    if !pos.castling().is_empty() {
        return None;
    }
    let bb = |role: Role| Bitboard(pos.by_role(role).bits());
    let by_role = ByRole {
        pawn: bb(Role::Pawn),
        knight: bb(Role::Knight),
        bishop: bb(Role::Bishop),
        rook: bb(Role::Rook),
        queen: bb(Role::Queen),
        king: bb(Role::King),
    };
    let by_color = ByColor {
        white: Bitboard(pos.by_color(Color::White).bits()),
        black: Bitboard(pos.by_color(Color::Black).bits()),
    };
    let mut setup = Setup::empty();
    setup.board = Board::from_bitboards(by_role, by_color);
    setup.turn = match pos.turn() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.ep_square = pos
        .ep_square()
        .map(|sq| shakmaty::Square::new(sq.index() as u32));
    setup.halfmoves = pos.halfmoves();
    setup.fullmoves = NonZeroU32::new(pos.fullmoves().max(1)).unwrap_or(NonZeroU32::MIN);
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::EnPassantMode;

    #[test]
    fn the_copy_writes_the_same_fen() {
        for fen in [
            "8/2K5/8/8/8/8/3p4/1k2N3 b - - 0 1",
            "8/8/8/3k4/3pP3/8/8/4K3 b - e3 0 1",
            "4k3/8/8/8/8/8/8/4K2R w - - 7 40",
        ] {
            let pos = Position::from_fen(fen, sable_chess::CastlingMode::Standard).unwrap();
            let copy = to_shakmaty(&pos).expect("converts");
            let back = Fen::from_position(copy, EnPassantMode::Legal).to_string();
            assert_eq!(back, fen);
        }
    }

    #[test]
    fn castling_rights_are_not_in_the_tables() {
        let pos = Position::from_fen(
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            sable_chess::CastlingMode::Standard,
        )
        .unwrap();
        assert!(to_shakmaty(&pos).is_none());
    }
}
