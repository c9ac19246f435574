//! Mentions: the values a case's text gives (names, amounts, dates, years),
//! found and normalised by deterministic code, so that the parser copies a
//! value by pointing at its mention instead of spelling it out:
//! "April 5th, 2012" is the date 2012-04-05, "$1,200" the number 1200,
//! "Alice's" the name `alice`.

use chrono::NaiveDate;
use lexlog_data::Value;

/// One value the text gives, and where (byte offsets of its first
/// occurrence).
#[derive(Debug, Clone, PartialEq)]
pub struct Mention {
    pub value: Value,
    pub start: usize,
    pub end: usize,
    /// How the text gives it: renderings of one span (a year as the number,
    /// its first day, its last day) differ only in kind.
    pub kind: MentionKind,
    /// Where else the text gives the same value.
    pub others: Vec<(usize, usize)>,
    /// Whether the question (after [`QUESTION_MARKER`]) gives it: what the
    /// question names is what the query asks about.
    pub in_question: bool,
}

/// Separates a case's text from its question in the parser's source.
pub const QUESTION_MARKER: &str = " Question: ";

/// How a mention's value was read from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MentionKind {
    Word,
    /// `alice_s_house` from "Alice's house".
    Possessive,
    /// A statute citation, as its predicate.
    Citation,
    ProperLower,
    ProperCased,
    Place,
    /// A dollar amount.
    Amount,
    /// A bare number or percentage.
    Number,
    Year,
    YearFirstDay,
    YearLastDay,
    Date,
    /// The year after a "since" date: where its yearly series of whole
    /// years begins (the first, partial year is an event of its own).
    YearAfter,
    /// A century after a "since" year: where SARA stops an open-ended
    /// series ("since 2017" runs to 2117).
    Horizon,
}

impl MentionKind {
    pub const COUNT: i64 = 14;

    /// Whether the value is computed from a "since" date, not spelled.
    pub fn is_derived(self) -> bool {
        matches!(self, Self::YearAfter | Self::Horizon)
    }

    /// Whether the kind reads a year, or a day of one, off the text.
    pub fn is_calendar(self) -> bool {
        matches!(self, Self::Year | Self::YearFirstDay | Self::YearLastDay | Self::YearAfter | Self::Horizon)
    }
}

impl Mention {
    /// Kinds, then the same kinds given by the question.
    pub const FEATURES: i64 = 2 * MentionKind::COUNT;

    /// Its kind and whether the question gives it, as one index.
    pub fn feature(&self) -> i64 {
        self.kind as i64 + if self.in_question { MentionKind::COUNT } else { 0 }
    }

    /// The section a citation mention names (`s151_d_5_A`).
    pub fn citation(&self) -> Option<&str> {
        match (&self.value, self.kind) {
            (Value::Name(n), MentionKind::Citation) => Some(n),
            _ => None,
        }
    }

    /// Every occurrence, the first first.
    pub fn spans(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        std::iter::once((self.start, self.end)).chain(self.others.iter().copied())
    }
}

/// `mentions` with the question flag moved to `focus` (a byte range of
/// their text): what the marked sentence names is flagged instead.
pub fn focused(mut mentions: Vec<Mention>, focus: (usize, usize)) -> Vec<Mention> {
    for m in &mut mentions {
        let inside = m.spans().any(|(s, e)| s >= focus.0 && e <= focus.1);
        m.in_question = inside;
    }
    mentions
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

fn month(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.len() < 3 {
        return None;
    }
    let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
    MONTHS
        .iter()
        .zip(full)
        .position(|(short, long)| w == *short || w == long || (w == "sept" && *short == "sep"))
        .map(|i| i as u32 + 1)
}

fn day(word: &str) -> Option<u32> {
    let w = word.trim_end_matches(',');
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

/// Whether a number reads as a calendar year.
pub fn is_year(n: i64) -> bool {
    (1800..2200).contains(&n)
}

fn year(word: &str) -> Option<i32> {
    let w = word.trim_end_matches([',', '.', ';', ':', ')', '?', '!']);
    (w.len() == 4).then(|| w.parse().ok()).flatten().filter(|y: &i32| is_year(i64::from(*y)))
}

/// The year a word spells, with the byte offset of its digits: "2017,"
/// and "(2017)" spell one, "$2017" is an amount.
pub(crate) fn spelled_year(word: &str) -> Option<(usize, i32)> {
    let at = word.find(|c: char| c.is_ascii_digit())?;
    let dollars = word.starts_with('$') || word.starts_with("US$");
    year(&word[at..]).filter(|_| !dollars).map(|y| (at, y))
}

/// Words of `text` with byte offsets; a word keeps trailing punctuation so
/// date patterns can see commas.
pub(crate) fn words(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len(), &text[s..]));
    }
    out
}

fn clean(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric())
}

/// A statute citation such as `7703(b)(3)` or `section 151(c)` as the
/// predicate that names it, `s7703_b_3`.
fn citation(word: &str) -> Option<String> {
    let w = word.trim_end_matches([',', '.', ';', ':']);
    let digits: String = w.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    let mut id = format!("s{digits}");
    let mut rest = &w[digits.len()..];
    let mut labels = 0;
    while let Some(r) = rest.strip_prefix('(') {
        let (label, after) = r.split_once(')')?;
        if label.is_empty() || !label.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        id.push('_');
        id.push_str(label);
        rest = after;
        labels += 1;
    }
    (labels > 0 && rest.is_empty()).then_some(id)
}

/// How many years on an open-ended "since" series stops (SARA's facts run
/// a home maintained "since 2017" to 2117).
pub const SERIES_HORIZON: i64 = 100;

/// Every value `text` mentions, in order of first occurrence, each once
/// with all its occurrences.
pub fn extract(text: &str) -> Vec<Mention> {
    let ws = words(text);
    let mut out: Vec<Mention> = Vec::new();
    let question = text.find(QUESTION_MARKER).map_or(usize::MAX, |q| q + QUESTION_MARKER.len());
    let mut push = |value: Value, start: usize, end: usize, kind: MentionKind| {
        let in_question = start >= question;
        match out.iter_mut().find(|m| m.value == value) {
            // A value the text spells itself is read as spelled, not as
            // derived from a "since" date.
            Some(m) if m.kind.is_derived() && !kind.is_derived() => {
                m.others.push((m.start, m.end));
                (m.start, m.end, m.kind) = (start, end, kind);
                m.in_question |= in_question;
            }
            Some(m) => {
                if !m.spans().any(|s| s == (start, end)) {
                    m.others.push((start, end));
                }
                m.in_question |= in_question;
            }
            None => out.push(Mention { value, start, end, kind, others: Vec::new(), in_question }),
        }
    };
    let mut i = 0;
    while i < ws.len() {
        let (s, e, w) = ws[i];
        // Month Day(th)[,] Year  |  Day Month[,] Year
        let date = match (ws.get(i + 1), ws.get(i + 2)) {
            (Some(&(_, _, d)), Some(&(_, e2, y))) => {
                let md = month(clean(w)).zip(day(d)).zip(year(y)).map(|((m, d), y)| (y, m, d));
                let dm = day(w).zip(month(clean(d))).zip(year(y)).map(|((d, m), y)| (y, m, d));
                md.or(dm).and_then(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d)).map(|date| (date, e2))
            }
            _ => None,
        };
        let since = i > 0 && clean(ws[i - 1].2).eq_ignore_ascii_case("since");
        if let Some((date, end)) = date {
            push(Value::Date(date), s, end, MentionKind::Date);
            if let Some(y) = year(ws[i + 2].2) {
                push(Value::Int(y as i64), ws[i + 2].0, ws[i + 2].1, MentionKind::Year);
                if since {
                    if let Some(last) = NaiveDate::from_ymd_opt(y, 12, 31) {
                        push(Value::Date(last), s, end, MentionKind::YearLastDay);
                    }
                    push(Value::Int(y as i64 + 1), s, end, MentionKind::YearAfter);
                    push(Value::Int(y as i64 + SERIES_HORIZON), s, end, MentionKind::Horizon);
                }
            }
            i += 3;
            continue;
        }
        // "section 7703" (no subsection) and "7703(b)(3)".
        if let Some(id) = citation(w) {
            push(Value::Name(id), s, e, MentionKind::Citation);
        } else if clean(w).eq_ignore_ascii_case("section") || clean(w).eq_ignore_ascii_case("sections") {
            if let Some(&(s2, e2, next)) = ws.get(i + 1) {
                let n = next.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != ')');
                if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
                    push(Value::Name(format!("s{n}")), s2, e2, MentionKind::Citation);
                }
            }
        }
        if let Some((_, y)) = spelled_year(w) {
            push(Value::Int(y as i64), s, e, MentionKind::Year);
            for (m, d, kind) in [(1, 1, MentionKind::YearFirstDay), (12, 31, MentionKind::YearLastDay)] {
                if let Some(date) = NaiveDate::from_ymd_opt(y, m, d) {
                    push(Value::Date(date), s, e, kind);
                }
            }
            if since {
                push(Value::Int(y as i64 + SERIES_HORIZON), s, e, MentionKind::Horizon);
            }
        } else if let Some(rest) = w.strip_prefix('$').or_else(|| w.strip_prefix("US$")) {
            let digits: String = rest.trim_end_matches(|c: char| !c.is_ascii_digit()).chars().filter(|c| *c != ',').collect();
            let integer = digits.split('.').next().unwrap_or_default();
            if let Ok(n) = integer.parse::<i64>() {
                push(Value::Int(n), s, e, MentionKind::Amount);
            }
        } else if let Ok(n) = clean(w).trim_end_matches('%').parse::<i64>() {
            push(Value::Int(n), s, e, MentionKind::Number);
        }
        let base = clean(w).trim_end_matches("'s").trim_end_matches("\u{2019}s");
        let possessive = base.len() < clean(w).len();
        let word = base.to_lowercase();
        if !word.is_empty() && word.chars().all(|c| c.is_alphabetic()) {
            push(Value::Name(word.clone()), s, e, MentionKind::Word);
            // "Alice's house" also gives the name alice_s_house.
            if possessive {
                if let Some(&(_, e2, next)) = ws.get(i + 1) {
                    let next = clean(next).to_lowercase();
                    if !next.is_empty() {
                        push(Value::Name(format!("{word}_s_{next}")), s, e2, MentionKind::Possessive);
                    }
                }
            }
        }
        // A run of capitalised words is a proper name: "Johns Hopkins University".
        let continues_run = i > 0 && ws[i - 1].2.starts_with(|c: char| c.is_uppercase()) && !ws[i - 1].2.ends_with(['.', ',', ';']);
        if w.starts_with(|c: char| c.is_uppercase()) && !continues_run {
            let mut j = i;
            let mut end = e;
            while let Some(&(_, e2, next)) = ws.get(j + 1) {
                if !next.starts_with(|c: char| c.is_uppercase()) || w.ends_with(['.', ',']) || ws[j].2.ends_with(['.', ',', ';']) {
                    break;
                }
                end = e2;
                j += 1;
            }
            if j > i {
                let phrase = text[s..end].trim_end_matches(|c: char| !c.is_alphanumeric());
                push(Value::Text(phrase.to_lowercase()), s, end, MentionKind::ProperLower);
                push(Value::Text(phrase.to_string()), s, end, MentionKind::ProperCased);
            }
            // Places: "Caracas, Venezuela", "Stanley, Wisconsin, USA".
            let mut j = i;
            let mut end = e;
            while ws[j].2.ends_with(',') && ws.get(j + 1).is_some_and(|n| n.2.starts_with(|c: char| c.is_uppercase())) {
                j += 1;
                end = ws[j].1;
            }
            if j > i {
                let phrase = text[s..end].trim_end_matches(|c: char| !c.is_alphanumeric());
                push(Value::Text(phrase.to_lowercase()), s, end, MentionKind::Place);
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<Value> {
        extract(text).into_iter().map(|m| m.value).collect()
    }

    #[test]
    fn dates_amounts_and_names() {
        let d = |y, m, day| Value::Date(NaiveDate::from_ymd_opt(y, m, day).unwrap());
        let v = values("Alice and Bob got married on April 5th, 2012. Alice paid $1,200 on 2 Feb 2015.");
        assert!(v.contains(&d(2012, 4, 5)));
        assert!(v.contains(&d(2015, 2, 2)));
        assert!(v.contains(&Value::Int(1200)));
        assert!(v.contains(&Value::Name("alice".into())));
        assert!(v.contains(&Value::Int(2012)));
    }

    #[test]
    fn years_give_their_first_and_last_days() {
        let v = values("In 2017, Alice was paid $33200.");
        let d = |m, day| Value::Date(NaiveDate::from_ymd_opt(2017, m, day).unwrap());
        assert!(v.contains(&d(1, 1)) && v.contains(&d(12, 31)) && v.contains(&Value::Int(33200)));
    }

    #[test]
    fn since_a_date_gives_its_years_end_the_next_year_and_the_horizon() {
        let ms = extract("Alice has maintained a home since September 16th, 2017. Bob lives there since 1993.");
        let kind = |v: Value| ms.iter().find(|m| m.value == v).map(|m| m.kind);
        let date = |y, m, d| Value::Date(NaiveDate::from_ymd_opt(y, m, d).unwrap());
        assert_eq!(kind(date(2017, 12, 31)), Some(MentionKind::YearLastDay));
        assert_eq!(kind(Value::Int(2018)), Some(MentionKind::YearAfter));
        assert_eq!(kind(Value::Int(2117)), Some(MentionKind::Horizon));
        assert_eq!(kind(Value::Int(2093)), Some(MentionKind::Horizon));
        assert_eq!(kind(Value::Int(1993)), Some(MentionKind::Year));
        // A year the text spells is a year, though a "since" date gives it too.
        let spelled = extract("Alice has maintained a home since September 16th, 2017. In 2018, Alice paid $2117.");
        let kind = |v: i64| spelled.iter().find(|m| m.value == Value::Int(v)).map(|m| m.kind);
        assert_eq!((kind(2018), kind(2117)), (Some(MentionKind::Year), Some(MentionKind::Amount)));
        let without = extract("Alice married Bob on September 16th, 2017.");
        assert!(!without.iter().any(|m| matches!(m.kind, MentionKind::YearAfter | MentionKind::Horizon)));
    }

    #[test]
    fn a_year_that_ends_a_question_is_a_year() {
        let ms = extract("How much tax does Alice have to pay in 2018?");
        let m = ms.iter().find(|m| m.value == Value::Int(2018)).expect("2018 mentioned");
        assert_eq!(m.kind, MentionKind::Year);
    }

    #[test]
    fn a_dollar_amount_that_looks_like_a_year_is_an_amount() {
        let ms = extract("Alice's exemption amount is $2000 in 2018.");
        let kind = |v: i64| ms.iter().find(|m| m.value == Value::Int(v)).map(|m| m.kind);
        assert_eq!(kind(2000), Some(MentionKind::Amount));
        assert_eq!(kind(2018), Some(MentionKind::Year));
        let jan1 = Value::Date(NaiveDate::from_ymd_opt(2000, 1, 1).unwrap());
        assert!(!ms.iter().any(|m| m.value == jan1), "no first day of a year 2000");
    }

    #[test]
    fn every_occurrence_counts_and_the_question_is_marked() {
        let text = format!("Alice married Bob in 2017. Bob paid $300.{QUESTION_MARKER}Does section 63 apply to Bob in 2017?");
        let ms = extract(&text);
        let bob = ms.iter().find(|m| m.value == Value::Name("bob".into())).unwrap();
        assert_eq!(bob.spans().count(), 3);
        assert!(bob.in_question);
        let alice = ms.iter().find(|m| m.value == Value::Name("alice".into())).unwrap();
        assert!(!alice.in_question && alice.others.is_empty());
        let paid = ms.iter().find(|m| m.value == Value::Int(300)).unwrap();
        assert!(!paid.in_question);
        assert!(ms.iter().find(|m| m.value == Value::Int(2017)).unwrap().in_question);
    }

    #[test]
    fn statute_citations_name_their_predicates() {
        let v = values("Section 7703(b)(3) applies under section 152(c)(1)(A) and section 2.");
        for id in ["s7703_b_3", "s152_c_1_A", "s2"] {
            assert!(v.contains(&Value::Name(id.into())), "{id} missing from {v:?}");
        }
    }

    #[test]
    fn possessives_and_proper_names() {
        let v = values("She works at Johns Hopkins University and lives in Alice's house.");
        assert!(v.contains(&Value::Text("johns hopkins university".into())), "{v:?}");
        assert!(v.contains(&Value::Name("alice_s_house".into())), "{v:?}");
    }
}
