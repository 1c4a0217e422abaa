//! The incoming player's choices, each played on the table: a position built, a shot
//! simulated by the engine, then the verdict, the options and what a choice does.

use carom_games::batch;
use carom_games::rules::{Choice, Placement};
use carom_games::{Game, GameKind, Shot, Table, TableKind};

fn rule(r: &carom_games::ShotResult) -> String {
    r.foul.as_ref().map_or("legal".into(), |f| f.rule.clone())
}

/// The snooker table's centre and ball radius.
fn snooker_table() -> ([f64; 2], f64) {
    let t = Table::new(TableKind::Snooker);
    (t.center(), t.balls.radius)
}

#[test]
fn a_foul_that_leaves_the_cue_ball_snookered_offers_a_free_ball() {
    // The only red behind the black, the cue ball on the same line: player 0 is
    // snookered, rolls the cue ball a little along the line and strikes nothing.
    let ([cx, cy], _) = snooker_table();
    let mut g = Game::layout(
        GameKind::Snooker,
        &[(0, [cx - 0.8, cy]), (21, [cx, cy]), (1, [cx + 1.0, cy])],
        0,
    )
    .unwrap();
    let r = g.shoot(&Shot::new(0.4, 180.0), None).unwrap();
    assert_eq!(rule(&r), "WPBSA foul: no ball struck");
    assert_eq!(r.points, [0, 4]);
    // No miss: the red was hidden before the shot.
    assert!(!r.foul.as_ref().unwrap().what.contains("miss"), "{r:?}");
    assert_eq!(g.state.player, 1);
    assert_eq!(
        g.options(),
        vec![Choice::Accept, Choice::PassBack, Choice::FreeBall]
    );
    assert!(r
        .verdict(GameKind::Snooker)
        .contains("options: accept, pass-back, free-ball"));
    // Replacing is not on offer: there was no miss.
    let e = g.clone().choose(Choice::Replace).unwrap_err();
    assert!(e.contains("replace is not on offer"), "{e}");
    // The free ball: the black, struck first, counts as a red.
    g.choose(Choice::FreeBall).unwrap();
    assert!(g.options().is_empty());
    assert_eq!(g.state.chosen, Some(Choice::FreeBall));
    let saved = Game::load(&g.save()).unwrap();
    assert_eq!(saved, g, "the chosen free ball is saved");
    let cue = g.balls.iter().find(|b| b.0 == 0).unwrap().1;
    let aim = (cy - cue[1]).atan2(cx - cue[0]).to_degrees() + 1.5;
    let r = g.shoot(&Shot::new(1.0, aim), None).unwrap();
    assert_eq!(r.facts.first_contact, Some(21));
    assert_ne!(rule(&r), "WPBSA foul: ball not on struck first");
    assert_eq!(g.state.chosen, None);
}

#[test]
fn a_miss_with_the_balls_replaced_restores_the_position_exactly() {
    // A red in plain sight; player 0 plays the blue instead: a foul and a miss.
    let ([cx, cy], _) = snooker_table();
    let layout = [
        (0, [cx - 0.6, cy]),
        (19, [cx, cy]),
        (1, [cx - 0.2, cy + 0.5]),
        (21, [cx + 1.2, cy - 0.3]),
    ];
    let mut g = Game::layout(GameKind::Snooker, &layout, 0).unwrap();
    let before = g.balls.clone();
    let r = g.shoot(&Shot::new(1.5, 0.0), None).unwrap();
    assert_eq!(rule(&r), "WPBSA foul: ball not on struck first");
    assert_eq!(r.points, [0, 5]);
    assert!(r.foul.as_ref().unwrap().what.contains("a miss"), "{r:?}");
    let options = g.options();
    assert!(options.contains(&Choice::Replace), "{options:?}");
    assert_eq!(options[..2], [Choice::Accept, Choice::PassBack]);
    assert_ne!(g.balls, before, "the shot moved the balls");
    // The pending choice survives a save.
    let mut g = Game::load(&g.save()).unwrap();
    g.choose(Choice::Replace).unwrap();
    assert_eq!(g.balls, before, "every ball back to the bit");
    assert_eq!(g.state.player, 0, "the offender plays again");
    assert_eq!(g.state.scores, [0, 5], "the penalty stands");
    assert_eq!(g.state.ball_in_hand, None);
    assert!(g.options().is_empty());
    // Played again from there, the same shot does the same.
    let again = g.shoot(&Shot::new(1.5, 0.0), None).unwrap();
    assert_eq!(again.facts.positions, r.facts.positions);
    assert_eq!(g.state.scores, [0, 10]);
}

/// A nine-ball game after a legal break that did not end it.
fn broken_nine_ball() -> Game {
    for seed in 1..40 {
        let mut g = Game::new(GameKind::NineBall, seed);
        let r = g.shoot(&Shot::new(8.0, 0.0), None).unwrap();
        if r.foul.is_none() && !r.game_over {
            return g;
        }
    }
    panic!("no legal break");
}

#[test]
fn a_push_out_accepted_and_one_passed_back() {
    let mut g = broken_nine_ball();
    let pusher = g.state.player;
    assert!(g.options().contains(&Choice::PushOut));
    g.choose(Choice::PushOut).unwrap();
    assert!(g.options().is_empty());
    // A soft roll that meets no ball: no foul on a push-out.
    let cue = g.balls[0].1;
    let away = if cue[0] > g.table.center()[0] {
        0.0
    } else {
        180.0
    };
    let r = g.shoot(&Shot::new(0.5, away), None).unwrap();
    assert_eq!(rule(&r), "legal");
    assert!(r.turn_over);
    let other = 1 - pusher;
    assert_eq!(g.state.player, other);
    assert_eq!(g.options(), vec![Choice::Accept, Choice::PassBack]);
    assert!(r
        .verdict(GameKind::NineBall)
        .ends_with("options: accept, pass-back"));
    let resumed = Game::load(&g.save()).unwrap();
    assert_eq!(resumed.options(), g.options());

    let mut accepted = g.clone();
    accepted.choose(Choice::Accept).unwrap();
    assert_eq!(accepted.state.player, other);
    assert!(accepted.options().is_empty());
    assert_eq!(accepted.balls, g.balls);

    let mut passed = g.clone();
    passed.choose(Choice::PassBack).unwrap();
    assert_eq!(passed.state.player, pusher);
    assert!(passed.options().is_empty());
    assert_eq!(passed.balls, g.balls);
    // The push-out was the one shot after the break: not on offer again.
    let e = passed.choose(Choice::PushOut).unwrap_err();
    assert!(e.contains("push-out is not on offer in nine-ball"), "{e}");
}

#[test]
fn choices_not_on_offer_or_of_another_game_are_one_line_and_change_nothing() {
    let mut g = broken_nine_ball();
    let kept = g.clone();
    for c in [
        Choice::FreeBall,
        Choice::Rerack,
        Choice::PassBack,
        Choice::Replace,
    ] {
        let e = g.choose(c).unwrap_err();
        assert!(!e.contains('\n'));
        assert!(
            e.contains(c.name()) && e.contains("options: push-out"),
            "{e}"
        );
        assert_eq!(g, kept);
    }
    let e = Choice::parse("free-throw").unwrap_err();
    assert!(e.contains("free-throw") && e.contains("push-out"), "{e}");
    // A push-out chosen takes no other call.
    let mut t = Game::new(GameKind::TenBall, 1);
    t.shoot(&Shot::new(8.0, 0.0), None).unwrap();
    if t.options().contains(&Choice::PushOut) {
        t.choose(Choice::PushOut).unwrap();
        let call = carom_games::rules::Call::Pot { ball: 2, pocket: 0 };
        let e = t.shoot(&Shot::new(1.0, 0.0), Some(call)).unwrap_err();
        assert!(e.contains("push-out was chosen"), "{e}");
    }
}

#[test]
fn an_illegal_eight_ball_break_is_re_racked() {
    // A gentle break: fewer than four balls reach a cushion and none drops.
    let mut g = Game::new(GameKind::EightBall, 3);
    let r = g.shoot(&Shot::new(1.2, 0.0), None).unwrap();
    assert_eq!(rule(&r), "WPA legal break");
    assert_eq!(g.state.player, 1);
    assert_eq!(g.state.ball_in_hand, None, "the table as it lies");
    assert_eq!(
        g.options(),
        vec![Choice::Accept, Choice::Rerack, Choice::RerackOffender]
    );
    let mut g = Game::load(&g.save()).unwrap();
    let mut offender = g.clone();
    g.choose(Choice::Rerack).unwrap();
    assert_eq!(g.state.player, 1, "the chooser breaks");
    assert_eq!(g.state.shots, 0);
    assert_eq!(g.state.ball_in_hand, Some(Placement::BehindHeadString));
    assert_eq!(g.balls.len(), 16);
    assert_eq!(g.state.on_table.len(), 15);
    assert!(g.options().is_empty());
    // The re-rack is a rack: the 8 in the middle of the third row.
    let eight = g.balls.iter().find(|b| b.0 == 8).unwrap().1;
    assert!((eight[1] - g.table.center()[1]).abs() < 1e-3);
    offender.choose(Choice::RerackOffender).unwrap();
    assert_eq!(offender.state.player, 0, "the offender breaks again");
    assert_eq!(offender.balls, g.balls, "the same rack either way");
    // The new break is played like the first.
    let r = g.shoot(&Shot::new(8.0, 0.0), None).unwrap();
    assert_eq!(r.shooter, 1);
}

/// A three-cushion position and a shot of player 0's that scores there, found with
/// the engine.
fn scoring_shot() -> (Game, Shot) {
    let t = Table::new(TableKind::Carom);
    let [cx, cy] = t.center();
    let layout = [
        (0, [cx - 0.5, cy + 0.2]),
        (1, [cx + 0.4, cy - 0.3]),
        (2, [cx + 0.9, cy + 0.35]),
    ];
    let g = Game::layout(GameKind::ThreeCushion, &layout, 0).unwrap();
    for speed in [3.0, 4.0] {
        let shots: Vec<Shot> = (0..720)
            .map(|k| Shot::new(speed, f64::from(k) * 0.5))
            .collect();
        let results = batch::simulate_shots(&g, &shots, None, 0).unwrap();
        if let Some(k) = results
            .iter()
            .position(|r| r.as_ref().is_ok_and(|r| r.points == [1, 0]))
        {
            return (g, shots[k]);
        }
    }
    panic!("no scoring shot found");
}

#[test]
fn an_equalising_inning_that_ties_and_one_that_does_not() {
    let (mut g, shot) = scoring_shot();
    assert!(g.state.equalising);
    assert_eq!(g.state.inning, 1);
    g.state.scores = [39, 39];
    let start = g.clone();
    let r = g.shoot(&shot, None).unwrap();
    assert_eq!(r.points, [1, 0]);
    assert!(!r.game_over, "the second player has an equalising inning");
    assert!(r.turn_over);
    assert_eq!(g.state.player, 1);
    assert!(g.state.last_inning);
    // Player 1, from the same position with the balls' roles swapped, scores too: a
    // tie. The position: player 1's ball where player 0's was.
    let swap = |n: u32| match n {
        0 => 1,
        1 => 0,
        n => n,
    };
    let mut tie = g.clone();
    tie.balls = start.balls.iter().map(|&(n, p)| (swap(n), p)).collect();
    tie.balls.sort_by_key(|b| b.0);
    let r = tie.shoot(&shot, None).unwrap();
    assert_eq!(r.points, [0, 1]);
    assert!(r.game_over);
    assert_eq!(r.winner, None, "a draw");
    assert_eq!(tie.state.scores, [40, 40]);
    // Missing in it: player 0 wins.
    let mut short = g.clone();
    let r = short.shoot(&Shot::new(0.3, 90.0), None).unwrap();
    assert_eq!(r.points, [0, 0]);
    assert!(r.game_over);
    assert_eq!(r.winner, Some(0));
    // Without the rule the first to the target wins at once.
    let mut plain = start.clone();
    plain.state.equalising = false;
    let r = plain.shoot(&shot, None).unwrap();
    assert!(r.game_over);
    assert_eq!(r.winner, Some(0));
}

#[test]
fn old_game_files_without_choices_still_load() {
    // A file as written before the choices existed: no options, no equalising.
    let g = Game::new(GameKind::ThreeCushion, 1);
    let text = g
        .save()
        .replace("  \"equalising\": true,\n", "")
        .replace(",\n    \"equalising\": true", "");
    assert!(!text.contains("equalising"), "{text}");
    let old = Game::load(&text).unwrap();
    assert!(!old.state.equalising);
    assert!(old.options().is_empty());
    // Bad choices in a file are one line.
    let bad = Game::new(GameKind::NineBall, 1).save().replace(
        "\"push_out\": false",
        "\"push_out\": false, \"options\": [\"free-ball\"]",
    );
    let e = Game::load(&bad).unwrap_err();
    assert!(e.contains("nine-ball has no choice free-ball"), "{e}");
    let bad = Game::new(GameKind::Snooker, 1).save().replace(
        "\"push_out\": false",
        "\"push_out\": false, \"options\": [\"replace\"]",
    );
    let e = Game::load(&bad).unwrap_err();
    assert!(e.contains("replace"), "{e}");
    let bad = Game::new(GameKind::NineBall, 1).save().replace(
        "\"push_out\": false",
        "\"push_out\": false, \"options\": [\"shrug\"]",
    );
    let e = Game::load(&bad).unwrap_err();
    assert!(!e.contains('\n') && e.contains("shrug"), "{e}");
}
