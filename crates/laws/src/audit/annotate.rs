//! The record annotated with the Laws' verdict (`arbiter audit --annotate`).

use super::Audit;
use crate::edition::Edition;
use arbiter_pgn::{Game as Record, Tags};

/// `record` with a `LawsResult` tag beside its `Result` (and `LawsArticle`
/// beside it when the Laws ended the game), a comment at the ply where the
/// Laws ended the game naming how and the Article, and each finding's
/// sentence as a comment at its ply.
///
/// ```
/// use arbiter_laws::audit::{annotate, audit, Options};
/// let pgn = "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let options = Options::default();
/// let annotated = annotate(&record, &audit(&record, &options), options.edition);
/// let text = annotated.to_pgn();
/// assert!(text.contains("[Result \"1/2-1/2\"]\n[LawsResult \"0-1\"]"));
/// let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
/// assert!(flat.contains("Qh4# {Laws (2014): the game ends here by checkmate, 0-1 (Art. 5.1 a)"));
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn annotate(record: &Record, audit: &Audit, edition: Edition) -> Record {
    annotate_record(record, audit, edition)
}

/// [`annotate`]'s record written as PGN (`options`), with the movetext's
/// termination marker as the record writes it: none where it has none (a
/// cut-short movetext), the one it has where its `Result` tag says another
/// (the writer writes the tag's for both), so that the annotated file
/// audits as the record did, contradiction and all. A broken record (read
/// up to where it breaks) ends with the tag's result, as [`annotate`]
/// writes it.
///
/// ```
/// use arbiter_laws::audit::{annotated_pgn, audit, Options};
/// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 0-1\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let options = Options::default();
/// let verdict = audit(&record, &options);
/// let text = annotated_pgn(&record, &verdict, options.edition, &Default::default());
/// assert!(text.contains("[Result \"1-0\"]"));
/// // The finding a comment, the marker as written after it.
/// assert!(text.trim_end().ends_with("the tag's.} 0-1"), "{text}");
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn annotated_pgn(
    record: &Record,
    audit: &Audit,
    edition: Edition,
    options: &arbiter_pgn::WriteOptions,
) -> String {
    let annotated = annotate_record(record, audit, edition);
    let mut text = annotated.to_pgn_with(options);
    let written = annotated.result();
    if record.error.is_none() && record.result != Some(written) {
        // The writer ends the movetext with the marker and a blank line.
        let tail = written.as_str().len() + 2;
        if text.ends_with(&format!("{}\n\n", written.as_str())) {
            text.truncate(text.len() - tail);
            match record.result {
                Some(marker) => text.push_str(marker.as_str()),
                None => text.truncate(text.trim_end().len()),
            }
            text.push_str("\n\n");
        }
    }
    text
}

fn annotate_record(record: &Record, audit: &Audit, edition: Edition) -> Record {
    let mut out = record.clone();
    // The result written (tag and marker) is the one the audit judged: the
    // `Result` tag where the record has one, whatever its movetext ends
    // with, so that the annotated file audits as the record did.
    if record.result.is_some() || record.tags.get("Result").is_some() {
        out.result = Some(
            audit
                .recorded
                .result
                .map_or(arbiter_pgn::GameResult::Unknown, |r| r.to_pgn()),
        );
    }
    let laws_result = audit
        .laws
        .result
        .map_or_else(|| "*".to_owned(), |r| r.to_string());
    let mut tags = Tags::new();
    let mut placed = false;
    let place = |tags: &mut Tags| {
        tags.push("LawsResult", laws_result.clone());
        if let Some(a) = audit.laws.article {
            tags.push("LawsArticle", a);
        }
    };
    for (name, value) in record.tags.iter() {
        if name == "LawsResult" || name == "LawsArticle" {
            continue;
        }
        tags.push(name, value);
        if name == "Result" && !placed {
            place(&mut tags);
            placed = true;
        }
    }
    if !placed {
        place(&mut tags);
    }
    out.tags = tags;
    let mut comment_at = |ply: u32, text: String| {
        if ply == 0 {
            out.line.comments.push(text);
        } else if let Some(node) = out.line.nodes.get_mut(ply as usize - 1) {
            node.comments.push(text);
        }
    };
    if let (Some(ply), Some(r), Some(t), Some(a)) = (
        audit.laws.ply,
        audit.laws.result,
        audit.laws.termination,
        audit.laws.article,
    ) {
        comment_at(
            ply,
            format!(
                "Laws ({}): the game ends here by {}, {r} (Art. {a})",
                edition.year(),
                super::termination_words(t)
            ),
        );
    }
    for f in &audit.findings {
        let ply = f.ply.unwrap_or(audit.plies).min(audit.plies);
        comment_at(ply, format!("Laws ({}): {}", edition.year(), f.text));
    }
    out
}
