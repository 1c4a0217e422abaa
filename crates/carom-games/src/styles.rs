//! How the games' balls look in pictures: colour, stripe and number, per ball of each
//! set. The renderer (crates/carom-render) takes this as a generic per-ball style; the
//! command line and the viewer convert.
//!
//! | set | balls |
//! |-----|-------|
//! | pool | 0 cue `#FFFFFF`; solids 1 yellow `#F4D03F`, 2 blue `#2E86C1`, 3 red `#E74C3C`, 4 purple `#8E44AD`, 5 orange `#F39C12`, 6 green `#1E8449`, 7 maroon `#922B21`, 8 black `#17202A`; 9 to 15 stripes in the colours of 1 to 7; every object ball numbered |
//! | snooker | 0 cue `#FFFFFF`; reds 1 to 15 `#C0392B`; 16 yellow `#F4D03F`, 17 green `#1E8449`, 18 brown `#784212`, 19 blue `#2E86C1`, 20 pink `#F5B7B1`, 21 black `#17202A`; no numbers |
//! | carom | 0 white `#FFFFFF`, 1 yellow `#F4D03F`, 2 red `#C0392B`; sum-to-three's object ball red; no numbers |
//!
//! The colours are those of [`GameKind::ball_color`], the ones the engine's scenario
//! carries, so a picture without styles shows the same colours less the stripes and
//! numbers.

use carom::Rgb;

use crate::setups::{is_stripe, GameKind, Setup};

/// One ball's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BallLook {
    pub color: Rgb,
    /// White caps with a band of `color` (pool 9 to 15).
    pub stripe: bool,
    /// The number printed on the ball (pool object balls).
    pub number: Option<u32>,
}

/// Ball `n` of the game's set.
pub fn look(game: GameKind, n: u32) -> BallLook {
    let color = Rgb::parse(game.ball_color(n)).unwrap_or(Rgb([0x80, 0x80, 0x80]));
    let pool = game.is_pool() && n > 0;
    BallLook {
        color,
        stripe: pool && is_stripe(n),
        number: pool.then_some(n),
    }
}

/// The looks of a position's balls, in the order of its scenario's balls.
pub fn looks(setup: &Setup) -> Vec<BallLook> {
    setup
        .balls
        .iter()
        .map(|&(n, _)| look(setup.game, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_balls_follow_the_standard_set() {
        // The usual set: 1 yellow, 2 blue, 3 red, 4 purple, 5 orange, 6 green,
        // 7 maroon, 8 black; 9 to 15 the same colours striped (9 yellow ... 15 maroon).
        let g = GameKind::EightBall;
        let hue = |c: Rgb| c.0;
        let yellow = look(g, 1).color;
        assert!(
            yellow.0[0] > 200 && yellow.0[1] > 180 && yellow.0[2] < 100,
            "{yellow:?}"
        );
        let black = hue(look(g, 8).color);
        assert!(black.iter().all(|&v| v < 60), "{black:?}");
        for n in 1..=7 {
            assert_eq!(look(g, n + 8).color, look(g, n).color, "{}", n + 8);
            assert!(!look(g, n).stripe && look(g, n + 8).stripe);
        }
        assert!(!look(g, 8).stripe);
        for n in 1..=15 {
            assert_eq!(look(g, n).number, Some(n));
        }
        let cue = look(g, 0);
        assert_eq!(
            (cue.color, cue.stripe, cue.number),
            (Rgb([255, 255, 255]), false, None)
        );
        // Nine-ball's 9 is the yellow stripe.
        let nine = look(GameKind::NineBall, 9);
        assert!(nine.stripe && nine.color == yellow && nine.number == Some(9));
    }

    #[test]
    fn snooker_and_carom_balls_are_plain_colours() {
        let s = GameKind::Snooker;
        let red = look(s, 1).color;
        for n in 1..=15 {
            assert_eq!(
                look(s, n),
                BallLook {
                    color: red,
                    stripe: false,
                    number: None
                }
            );
        }
        // The six colours are distinct from each other and from the reds.
        let colours: Vec<Rgb> = (16..=21).map(|n| look(s, n).color).collect();
        for (i, a) in colours.iter().enumerate() {
            assert_ne!(*a, red);
            assert!(colours[i + 1..].iter().all(|b| b != a));
        }
        let c = GameKind::ThreeCushion;
        let set: Vec<BallLook> = (0..3).map(|n| look(c, n)).collect();
        assert!(set.iter().all(|l| !l.stripe && l.number.is_none()));
        assert_eq!(set[0].color, Rgb([255, 255, 255]));
        assert!(set[1].color != set[0].color && set[2].color != set[1].color);
    }

    #[test]
    fn a_setup_lists_its_balls_looks_in_scenario_order() {
        let setup = Setup::new(GameKind::NineBall, 4);
        let l = looks(&setup);
        assert_eq!(l.len(), setup.balls.len());
        for (look, &(n, _)) in l.iter().zip(&setup.balls) {
            assert_eq!(look.number, (n > 0).then_some(n));
        }
    }
}
