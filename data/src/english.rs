//! Words of SARA's English that name nothing. No value of the IR is one:
//! of the 376 cases' gold facts and queries, no name is a function word,
//! and beams copied "they", "by" and "of" as people.

/// English function words: articles, pronouns, prepositions,
/// conjunctions, auxiliaries and question words.
pub const FUNCTION_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "before", "both", "but", "by", "can", "did", "do", "does", "during",
    "each", "either", "every", "for", "from", "had", "has", "have", "he", "her", "hers", "herself", "him", "himself", "his", "how", "if", "in", "is",
    "it", "its", "many", "much", "neither", "no", "none", "nor", "not", "of", "on", "one", "or", "our", "over", "she", "since", "so", "some", "such",
    "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "under", "until",
    "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "within", "would",
    "you",
];

/// Whether `word` (in any case) is one of [`FUNCTION_WORDS`].
pub fn is_function_word(word: &str) -> bool {
    FUNCTION_WORDS.iter().any(|f| f.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_words_in_any_case_and_whole() {
        assert!(is_function_word("They") && is_function_word("of") && is_function_word("BY"));
        assert!(!is_function_word("alice") && !is_function_word("spouse") && !is_function_word("home") && !is_function_word("ofx"));
    }
}
