//! Names other people see (protocol §2.1): a player's display name, an
//! event's name. A name must not hide, disguise or reorder itself or the
//! text around it, nor look empty: [`check_visible_name`] is the one check,
//! called wherever such a name is accepted.

use crate::error::ApiError;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

/// `text`, trimmed, if every character of it may be shown as part of a
/// name (protocol §2.1: "a zero-width or other invisible format character is
/// refused"); else `invalid_request` naming `field`.
///
/// Refused anywhere in the text (issue 13, defect 7; testers' report):
/// - every format character (general category `Cf`): direction embeddings,
///   overrides, isolates and marks, zero-width spaces and joiners, the soft
///   hyphen, tag characters (U+E0000 block), the musical symbol beams
///   (U+1D173..U+1D17A), shorthand format controls (U+1BCA0..U+1BCA3),
///   Egyptian hieroglyph format controls (U+13430..);
/// - line and paragraph separators (`Zl`, `Zp`: U+2028, U+2029);
/// - variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF, the Mongolian
///   U+180B..U+180D, U+180F) and the combining grapheme joiner U+034F, which
///   combine invisibly — but for emoji as people write them: U+FE0E/U+FE0F
///   right after an emoji, the zero-width joiner between two ("❤️", "👩‍💻");
/// - characters that draw nothing: the Hangul fillers (U+115F, U+1160,
///   U+3164, U+FFA0) and the braille blank U+2800;
/// - unassigned code points (`Cn`), among them the reserved default-ignorable
///   ranges (U+2065, U+FFF0..U+FFF8, U+E0080..U+E0FFF).
///
/// A text with nothing visible left (only white space and control
/// characters, or empty) is refused too. Control characters are the
/// caller's: a display name strips them (§3.1), an event's name refuses them
/// (§9.1).
///
/// ```
/// use arbiter_server::display_name::check_visible_name;
/// assert_eq!(check_visible_name("name", "  Anna ").unwrap(), "Anna");
/// assert!(check_visible_name("name", "An\u{202E}na").is_err());
/// assert!(check_visible_name("name", "Anna\u{E0041}").is_err());
/// assert!(check_visible_name("name", " \u{3000} ").is_err());
/// ```
pub fn check_visible_name<'a>(field: &str, text: &'a str) -> Result<&'a str, ApiError> {
    let chars: Vec<char> = text.chars().collect();
    let refused = (0..chars.len()).find(|&i| hidden(chars[i]) && !joins_emoji(&chars, i));
    if let Some(c) = refused.map(|i| chars[i]) {
        return Err(ApiError::invalid(
            field,
            format!(
                "{field}: U+{:04X} (an invisible, format or direction character) is not allowed",
                u32::from(c)
            ),
        ));
    }
    if text.chars().all(|c| c.is_whitespace() || c.is_control()) {
        return Err(ApiError::invalid(
            field,
            format!("{field}: nothing visible (only blank characters)"),
        ));
    }
    Ok(text.trim())
}

/// Is `chars[i]` (a selector or joiner) part of an emoji as people write
/// it: the emoji presentation selector U+FE0F or the text one U+FE0E right
/// after an emoji ("❤️"), the zero-width joiner between two emoji ("👩‍💻")?
/// Then it hides nothing. ASCII (the digits, `#` and `*` of keycaps) is not
/// an emoji here: "1\u{FE0F}" would look like "1".
fn joins_emoji(chars: &[char], i: usize) -> bool {
    let emoji = |c: Option<&char>| c.is_some_and(|c| !c.is_ascii() && c.is_emoji_char());
    let before = i.checked_sub(1).and_then(|j| chars.get(j));
    match chars[i] {
        '\u{FE0E}' | '\u{FE0F}' => emoji(before),
        '\u{200D}' => {
            let before = match before {
                Some('\u{FE0F}') => i.checked_sub(2).and_then(|j| chars.get(j)),
                b => b,
            };
            emoji(before) && emoji(chars.get(i + 1))
        }
        _ => false,
    }
}

/// Is `c` refused in a name ([`check_visible_name`])?
fn hidden(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::Unassigned
    ) || matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character the testers found (a name-checking script of theirs) and the
    /// earlier list (bidi, zero-width, BOM), refused anywhere in a name.
    #[test]
    fn invisible_format_and_blank_characters_are_refused() {
        let refused = [
            '\u{00AD}',  // soft hyphen
            '\u{034F}',  // combining grapheme joiner
            '\u{061C}',  // Arabic letter mark
            '\u{115F}',  // Hangul choseong filler
            '\u{1160}',  // Hangul jungseong filler
            '\u{180B}',  // Mongolian free variation selector one
            '\u{180E}',  // Mongolian vowel separator
            '\u{180F}',  // Mongolian free variation selector four
            '\u{200B}',  // zero-width space
            '\u{200D}',  // zero-width joiner
            '\u{200F}',  // right-to-left mark
            '\u{2028}',  // line separator
            '\u{2029}',  // paragraph separator
            '\u{202A}',  // left-to-right embedding
            '\u{202E}',  // right-to-left override
            '\u{2060}',  // word joiner
            '\u{2065}',  // reserved, default ignorable
            '\u{2066}',  // left-to-right isolate
            '\u{2069}',  // pop directional isolate
            '\u{2800}',  // braille pattern blank
            '\u{3164}',  // Hangul filler
            '\u{FE00}',  // variation selector 1
            '\u{FE0F}',  // variation selector 16
            '\u{FEFF}',  // zero-width no-break space
            '\u{FFA0}',  // halfwidth Hangul filler
            '\u{FFF9}',  // interlinear annotation anchor
            '\u{13430}', // Egyptian hieroglyph vertical joiner
            '\u{1BCA0}', // shorthand format letter overlap
            '\u{1BCA3}', // shorthand format up step
            '\u{1D173}', // musical symbol begin beam
            '\u{1D17A}', // musical symbol end phrase
            '\u{E0001}', // language tag
            '\u{E0041}', // tag Latin capital letter A
            '\u{E007F}', // cancel tag
            '\u{E0100}', // variation selector 17
            '\u{E01EF}', // variation selector 256
        ];
        for c in refused {
            assert!(hidden(c), "U+{:04X}", u32::from(c));
            let text = format!("An{c}na");
            let e = check_visible_name("name", &text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("name"), "U+{:04X}", u32::from(c));
            assert!(
                e.message.contains(&format!("U+{:04X}", u32::from(c))),
                "{}",
                e.message
            );
        }
    }

    /// Selectors and joiners anywhere else stay refused: after a letter, a
    /// keycap digit, at the start, a joiner with nothing joined.
    #[test]
    fn selectors_and_joiners_outside_emoji_are_refused() {
        for text in [
            "An\u{FE0F}na",
            "Anna1\u{FE0F}",
            "\u{FE0F}🙂",
            "🙂\u{200D}",
            "🙂\u{200D}a",
            "a\u{200D}🙂",
            "🙂\u{FE0F}\u{FE0F}",
        ] {
            assert!(check_visible_name("name", text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn blank_names_are_refused() {
        for text in ["", " ", "\u{3000}\u{00A0}\t", "\u{2800}\u{2800}", "\u{1}\n"] {
            let e = check_visible_name("name", text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("name"), "{text:?}");
        }
    }

    #[test]
    fn names_people_write_are_kept() {
        for (text, kept) in [
            ("  Anna ", "Anna"),
            ("Алиса ♞", "Алиса ♞"),
            ("José", "José"),
            ("e\u{0301}", "e\u{0301}"),
            ("王小明", "王小明"),
            ("محمد", "محمد"),
            ("Anna 🙂", "Anna 🙂"),
            // Emoji as written: a presentation selector, a joined sequence.
            ("Anna ❤\u{FE0F}", "Anna ❤\u{FE0F}"),
            ("Ada 👩\u{200D}💻", "Ada 👩\u{200D}💻"),
            ("Bo 🏳\u{FE0F}\u{200D}🌈", "Bo 🏳\u{FE0F}\u{200D}🌈"),
            ("Ann\u{00A0}Lee", "Ann\u{00A0}Lee"),
        ] {
            assert_eq!(check_visible_name("name", text).unwrap(), kept, "{text:?}");
        }
    }
}
