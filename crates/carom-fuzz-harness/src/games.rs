//! The billiards games' inputs: a shots file (`carom play GAME --shots FILE.csv`) and
//! a game file (`carom play GAME.json`).

use carom_games::shots_file;
use carom_games::{Game, GameKind, Shot};

/// The most shots of one input played: each is a full simulation to rest.
const MAX_SHOTS: usize = 3;

/// A shots file: the first byte picks the game and its seed, the rest is the file.
/// Parsed; its first shots played; every error one line; the game after them saves
/// and loads back to itself.
pub fn game_shots(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let kind = GameKind::ALL[pick as usize % GameKind::ALL.len()];
    let mut game = Game::new(kind, u64::from(pick / 8));
    let lines = match shots_file::parse("fuzz.csv", text) {
        Ok(l) => l,
        Err(e) => {
            assert!(!e.contains('\n'), "{e:?}");
            return;
        }
    };
    let n = lines.len().min(MAX_SHOTS);
    let played = shots_file::play(
        "fuzz.csv",
        &mut game,
        &lines[..n],
        |_, _, _, _| {},
        |_, _, _| {},
    );
    if let Err(e) = played {
        assert!(!e.contains('\n'), "{e:?}");
    }
    let again = Game::load(&game.save()).expect("a game's own file loads");
    assert_eq!(again, game);
}

/// A game file: loaded as `carom play GAME.json` loads it; when it loads, it is its
/// own fixed point, and a shot from it is judged or refused in one line.
pub fn game_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut game = match Game::load(text) {
        Ok(g) => g,
        Err(e) => {
            assert!(!e.contains('\n'), "{e:?}");
            return;
        }
    };
    let again = Game::load(&game.save()).expect("a game's own file loads");
    assert_eq!(again, game);
    // Every choice on offer, each from the loaded game: taken, or refused in one
    // line; the game after it saves and loads back to itself.
    for choice in game.options() {
        let mut g = game.clone();
        match g.choose(choice) {
            Ok(()) => {
                let again = Game::load(&g.save()).expect("a game's own file loads");
                assert_eq!(again, g);
            }
            Err(e) => assert!(!e.contains('\n'), "{e:?}"),
        }
    }
    if let Err(e) = game.shoot(&Shot::new(2.0, 10.0), None) {
        assert!(!e.contains('\n'), "{e:?}");
    }
}
