//! The property of the `audit` fuzz target (`crates/laws/fuzz`) checked on
//! mutated records without cargo-fuzz: pieces of real files (the Lichess
//! and TWIC samples of the `pgn-reader` crate, when Cargo's registry has
//! them) and hand-written records of every shape the audit reads (clocks,
//! servers' end sentences, null moves, set-up positions, Chess960), with
//! bytes dropped, repeated, changed and tokens of PGN spliced in. The audit
//! never panics, and its lean reading audits every game as the full record
//! does and as the move-by-move reference does.

use arbiter_laws::fuzzing::audit_property;
use rand::{seq::SliceRandom, Rng, SeedableRng};

/// Records of every shape the audit reads.
const HAND: &[&str] = &[
    "[Event \"FICS rated blitz game\"]\n[TimeControl \"180+0\"]\n[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. Kd2 {[%clk 0:02:59]} Kd7 {[%clk 0:02:58]} 2. Kd3 {White forfeits on time} 0-1\n",
    "[Result \"1/2-1/2\"]\n[LongResult \"Game drawn by the 50 move rule\"]\n[TimeControl \"2/60:60\"]\n[Termination \"Both flags fell\"]\n\n1. e4 {[%emt 0:00:10]} e5 {Game 3 (a vs. b) Game drawn by repetition} 1/2-1/2\n",
    "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\nZ0 3. Bc4 -- 4. Qh5 Nf6 5. Qxf7# 1-0\n",
    "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n[Result \"*\"]\n\n9. g3 Nh5 10. O-O *\n",
    "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"60+1\"]\n\n1. f3 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. g4 { [%clk 0:00:01] } Qh4# { [%clk 0:00:59] } 0-1\n",
    "[FEN \"8/8/8/8/8/7K/1R6/k7 b - - 0 1\"]\n[Result \"1-0\"]\n\n1... Kxb2 1-0\n",
    "[Result \"0-1\"]\n[ICCResult \"White forfeits on time\"]\n\n{White forfeits by disconnection} 0-1\n\n[Result \"1-0\"]\n\n{ [%clk 0:01:00] Black resigns} {x} 1-0\n",
    "[Result \"1/2-1/2\"]\n[Termination \"Game drawn by repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 (4... e5 5. e4) 5. Nf3 $1 1/2-1/2\n",
];

/// Records that are not UTF-8 (read as Latin-1): a byte 0xA0 is a space
/// to the game builder (found by cargo-fuzz: the lean reading took no clock
/// from `[%clk\xa0 0:05:01]`).
const LATIN_1: &[&[u8]] = &[
    b"[TimeControl \"300+3\"]\n[Result \"0-1\"]\n\n1. e4 { [%clk 0:05:00] } e5 { [%clk 0:05:00] } 2. Nf3 { [%clk\xa0 0:05:01] } Nc6 { [%clk 0:05:02] [%emt\xa00:00:01] } 0-1\n",
    b"[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7 2. Kd3 {Black\xa0resigns} {caf\xe9} 1-0\n",
];

/// Tokens spliced into the records.
const TOKENS: &[&str] = &[
    "{White forfeits on time}",
    "{Game drawn because both players ran out of time}",
    "{Black resigns}",
    "{ [%clk 0:00:00] }",
    "{ [%emt 9:59:59] }",
    "[%clk 1:00:00]",
    "Z0 ",
    "-- ",
    "1-0",
    "0-1",
    "1/2-1/2",
    " * ",
    "(",
    ")",
    "{",
    "}",
    "\n\n",
    "[Result \"1-0\"]\n",
    "[Termination \"Time forfeit\"]\n",
    "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n",
    "[TimeControl \"40/5400+30:1800+30\"]\n",
    "O-O ",
    "e8=Q ",
    "$1 ",
    ";x\n",
    "%\n",
    "12. ",
    "...",
];

/// Bytes a changed byte becomes.
const BYTES: &[u8] = b" \n{}()[]\".-0123456789abcdefghKQRBNOxZ=+#!?";

/// One mutation of `text`: a run of bytes dropped or repeated, a byte
/// changed, or a token spliced in.
fn mutate(text: &mut Vec<u8>, rng: &mut impl Rng) {
    let len = text.len();
    match rng.gen_range(0..5) {
        0 if len > 0 => {
            let a = rng.gen_range(0..len);
            let b = (a + rng.gen_range(1..=16)).min(len);
            text.drain(a..b);
        }
        1 if len > 0 => {
            let a = rng.gen_range(0..len);
            let b = (a + rng.gen_range(1..=32)).min(len);
            let piece = text[a..b].to_vec();
            let at = rng.gen_range(0..=len);
            text.splice(at..at, piece);
        }
        2 if len > 0 => {
            let a = rng.gen_range(0..len);
            text[a] = *BYTES.choose(rng).unwrap();
        }
        _ => {
            let at = rng.gen_range(0..=len);
            text.splice(at..at, TOKENS.choose(rng).unwrap().bytes());
        }
    }
}

/// Pieces of a real file: its first 120 games (split at `[Event `), two
/// by two.
fn real_pieces(name: &str) -> Vec<Vec<u8>> {
    let Some(bytes) = arbiter_testkit::registry_file("pgn-reader-", &format!("benches/{name}"))
    else {
        eprintln!("skipped: {name} (the pgn-reader crate's samples) not in Cargo's registry");
        return Vec::new();
    };
    let text = String::from_utf8(bytes).unwrap();
    let games: Vec<&str> = text.split("[Event ").filter(|g| !g.is_empty()).collect();
    games
        .chunks(2)
        .take(60)
        .map(|c| {
            c.iter()
                .map(|g| format!("[Event {g}"))
                .collect::<String>()
                .into_bytes()
        })
        .collect()
}

#[test]
fn the_audit_of_mutated_records_holds_its_property() {
    let mut seeds: Vec<Vec<u8>> = HAND.iter().map(|t| t.as_bytes().to_vec()).collect();
    seeds.extend(LATIN_1.iter().map(|t| t.to_vec()));
    seeds.extend(real_pieces("lichess_db_1000k.pgn"));
    seeds.extend(real_pieces("twic1599_1000k.pgn"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut games = 0;
    let mut cases = 0;
    for seed in &seeds {
        // Each seed as it is, then mutated a few times over.
        games += audit_property(seed);
        cases += 1;
        for _ in 0..24 {
            let mut text = seed.clone();
            for _ in 0..rng.gen_range(1..=6) {
                mutate(&mut text, &mut rng);
            }
            games += audit_property(&text);
            cases += 1;
        }
    }
    assert!(cases >= 25 * (HAND.len() + LATIN_1.len()));
    assert!(games >= cases, "{games} games in {cases} texts");
    eprintln!("{games} games in {cases} texts");
}
