//! Texel's tuning method: fit the evaluation's weights so that
//! `sigmoid(K · eval)` predicts game results, by minimising the mean squared
//! error over labelled positions with Adam on the full batch.
//!
//! The evaluation is linear in its weights (see [`crate::eval`]), so each
//! position is reduced once to its sparse feature coefficients, its phase and
//! its endgame scales.

use crate::eval::features::{group_of, GROUPS, NUM_FEATURES, S};
use crate::eval::{trace, Weights, MAX_PHASE};
use arbiter_chess::Position;
use std::fmt::Write as _;
use std::io::BufRead;

/// A labelled position reduced to what the fit needs.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::features::TEMPO;
/// use arbiter_engine::tune::texel::sample;
///
/// // The initial position, a draw for White (0.5).
/// let s = sample(&Position::standard(), 0.5);
/// assert_eq!(s.phase, 24);
/// assert_eq!(s.result, 0.5);
/// // Symmetric: White's and Black's counts cancel; only the tempo is left.
/// assert_eq!(s.coeffs, vec![(TEMPO as u16, 1)]);
/// ```
#[derive(Clone, Debug)]
pub struct Sample {
    /// Non-zero coefficients: (feature, White minus Black count).
    pub coeffs: Vec<(u16, i16)>,
    /// Game phase, 0..=24.
    pub phase: u8,
    /// Endgame scale (of 64) when White, resp. Black, is ahead.
    pub scales: [u8; 2],
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f32,
}

/// A line of training data that cannot be read.
///
/// ```
/// use arbiter_engine::tune::texel::{load, DataError};
///
/// let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5\nno result here\n";
/// let err = load(text.as_bytes()).unwrap_err();
/// assert!(matches!(err, DataError::Line { line: 2, .. }));
/// assert_eq!(err.to_string(), "line 2: expected FEN;result");
/// ```
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Reading failed.
    #[error("reading training data: {0}")]
    Io(#[from] std::io::Error),
    /// A line is not `FEN;result`.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Reduces one position and result to a sample.
pub fn sample(pos: &Position, result: f32) -> Sample {
    let (t, taper) = trace(pos);
    let coeffs = t
        .coeffs
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
        .collect();
    Sample {
        coeffs,
        phase: taper.phase as u8,
        scales: [taper.scale_white as u8, taper.scale_black as u8],
        result,
    }
}

/// Reads `FEN;result` lines (as written by self-play).
pub fn load<R: BufRead>(input: R) -> Result<Vec<Sample>, DataError> {
    let mut out = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| DataError::Line {
            line: i + 1,
            message,
        };
        let (fen, result) = line
            .rsplit_once(';')
            .ok_or_else(|| err("expected FEN;result".into()))?;
        let result: f32 = result
            .trim()
            .parse()
            .map_err(|_| err(format!("result {result:?} is not a number")))?;
        if !(0.0..=1.0).contains(&result) {
            return Err(err(format!("result {result} is not between 0 and 1")));
        }
        let pos = Position::from_fen_auto(fen).map_err(|e| err(format!("bad FEN: {e}")))?;
        out.push(sample(&pos, result));
    }
    Ok(out)
}

/// Weights as floating point pairs.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::WEIGHTS;
/// use arbiter_engine::tune::texel::{loss, params_of, sample, weights_of, Params};
///
/// let p: Params = params_of(&WEIGHTS);
/// assert_eq!(p[0], [f64::from(WEIGHTS[0].mg), f64::from(WEIGHTS[0].eg)]);
/// assert_eq!(weights_of(&p), WEIGHTS);
///
/// // A queen up and won: the weights predict it well.
/// let won = Position::from_fen_auto("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
/// let good = loss(&[sample(&won, 1.0)], &p, 1.0);
/// let bad = loss(&[sample(&won, 0.0)], &p, 1.0);
/// assert!(good < 0.1 && bad > 0.9);
/// ```
pub type Params = Vec<[f64; 2]>;

/// Converts integer weights to parameters.
pub fn params_of(w: &Weights) -> Params {
    w.iter().map(|s| [s.mg as f64, s.eg as f64]).collect()
}

/// Rounds parameters to integer weights.
pub fn weights_of(p: &Params) -> Weights {
    let mut w = [S::default(); NUM_FEATURES];
    for (i, pair) in p.iter().enumerate().take(NUM_FEATURES) {
        w[i] = S {
            mg: pair[0].round() as i32,
            eg: pair[1].round() as i32,
        };
    }
    w
}

/// The evaluation of a sample (White's view) and the parts needed for gradients.
#[inline]
fn eval_sample(s: &Sample, p: &Params) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.coeffs {
        let w = p[i as usize];
        mg += w[0] * c as f64;
        eg += w[1] * c as f64;
    }
    let scale = if eg > 0.0 { s.scales[0] } else { s.scales[1] } as f64 / 64.0;
    let ph = s.phase as f64 / MAX_PHASE as f64;
    (mg * ph + eg * scale * (1.0 - ph), ph, scale)
}

#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e * std::f64::consts::LN_10 / 400.0).exp())
}

/// Mean squared error of the predictions.
pub fn loss(samples: &[Sample], p: &Params, k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (e, _, _) = eval_sample(s, p);
            let d = s.result as f64 - sigmoid(k, e);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scaling constant `K` that best fits the current weights.
pub fn fit_k(samples: &[Sample], p: &Params) -> f64 {
    let (mut lo, mut hi) = (0.2f64, 3.0f64);
    for _ in 0..40 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if loss(samples, p, m1) < loss(samples, p, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// Runs Adam for `epochs` full-batch steps, with an L2 penalty `l2 · Σ (w − w₀)²`
/// (per centipawn², relative to the start) against overfitting; reports the
/// loss after each epoch.
pub fn fit(
    samples: &[Sample],
    start: &Params,
    k: f64,
    epochs: u32,
    lr: f64,
    l2: f64,
    report: &mut dyn FnMut(u32, f64),
) -> Params {
    let n = NUM_FEATURES;
    let mut p = start.clone();
    let mut m = vec![[0.0f64; 2]; n];
    let mut v = vec![[0.0f64; 2]; n];
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let c = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; n];
        for s in samples {
            let (e, ph, scale) = eval_sample(s, &p);
            let sg = sigmoid(k, e);
            let d = -2.0 * (s.result as f64 - sg) * sg * (1.0 - sg) * c;
            let gm = d * ph;
            let ge = d * (1.0 - ph) * scale;
            for &(i, co) in &s.coeffs {
                let g = &mut grad[i as usize];
                g[0] += gm * co as f64;
                g[1] += ge * co as f64;
            }
        }
        let inv = 1.0 / samples.len().max(1) as f64;
        let t = epoch as i32;
        for i in 0..n {
            for j in 0..2 {
                let g = grad[i][j] * inv + 2.0 * l2 * (p[i][j] - start[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(t));
                let vh = v[i][j] / (1.0 - b2.powi(t));
                p[i][j] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        report(epoch, loss(samples, &p, k));
    }
    p
}

/// Renders weights as the Rust source of `eval/weights.rs`.
pub fn render(w: &Weights, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::features::{s, NUM_FEATURES, S};\n\n");
    out.push_str("/// The weights the engine plays with.\n");
    out.push_str("#[rustfmt::skip]\npub const WEIGHTS: [S; NUM_FEATURES] = [\n");
    for &(name, start, len) in GROUPS {
        let _ = writeln!(out, "    // {name}");
        for row in w[start..start + len].chunks(4) {
            out.push_str("   ");
            for x in row {
                let _ = write!(out, " s({}, {}),", x.mg, x.eg);
            }
            out.push('\n');
        }
    }
    out.push_str("];\n");
    let _ = group_of(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate_with, WEIGHTS};
    use arbiter_chess::Color;

    #[test]
    fn sample_eval_matches_engine_eval() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
        ] {
            let pos = Position::from_fen_auto(fen).unwrap();
            let s = sample(&pos, 0.5);
            let (e, _, _) = eval_sample(&s, &params_of(&WEIGHTS));
            let engine = evaluate_with(&pos, &WEIGHTS) as f64;
            let white = if pos.turn() == Color::White {
                engine
            } else {
                -engine
            };
            assert!((e - white).abs() <= 2.0, "{e} vs {white}");
        }
    }

    #[test]
    fn fitting_reduces_the_loss() {
        // Positions where White is a piece up won; a piece down lost.
        let data = "\
4k3/pppp4/8/8/8/8/PPPP4/2N1K3 w - - 0 1;1
4k3/pppp4/8/8/8/8/PPPP4/2B1K3 b - - 0 1;1
2n1k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1;0
2b1k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1;0
4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1;0.5
";
        let samples = load(data.as_bytes()).unwrap();
        assert_eq!(samples.len(), 5);
        let mut start = params_of(&WEIGHTS);
        for p in start.iter_mut().take(5) {
            *p = [10.0, 10.0];
        }
        let before = loss(&samples, &start, 1.0);
        let after_p = fit(&samples, &start, 1.0, 200, 2.0, 0.0, &mut |_, _| {});
        assert!(loss(&samples, &after_p, 1.0) < before);
    }

    #[test]
    fn bad_lines_name_their_number() {
        let err = load("8/8/8/8/8/8/8/8 w - - 0 1;1\n".as_bytes()).unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        let err = load("# comment\n4k3/8/8/8/8/8/8/4K3 w - - 0 1;x\n".as_bytes()).unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
    }

    #[test]
    fn rendering_round_trips_the_layout() {
        let src = render(&WEIGHTS, "test header");
        assert!(src.starts_with("//! test header"));
        assert_eq!(src.matches(" s(").count(), NUM_FEATURES);
    }
}
