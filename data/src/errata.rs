//! Known defects of SARA v1, corrected while reading. This table is the
//! only place where a case is treated by name; each correction is logged
//! and recorded on the case ([`crate::Case::corrections`]).

/// One textual correction to one case file.
#[derive(Debug, Clone, Copy)]
pub struct Erratum {
    pub case: &'static str,
    pub find: &'static str,
    pub replace: &'static str,
    pub why: &'static str,
}

pub const ERRATA: &[Erratum] = &[
    Erratum {
        case: "s3306_c_2_pos",
        find: "s3306_b(300,alice_pays,alice_employer,alice,bob,_,_,_,_,alice,bob)\n",
        replace: "s3306_b(300,alice_pays,alice_employer,alice,bob,_,_,_,_,alice,bob).\n",
        why: "the last fact lacks its full stop, which swallows the test",
    },
    Erratum {
        case: "s3306_c_2_neg",
        find: "s3306_b(3200,alice_pays,alice_employer,alice,bob,_,_,_,_,alice,bob)\n",
        replace: "s3306_b(3200,alice_pays,alice_employer,alice,bob,_,_,_,_,alice,bob).\n",
        why: "the last fact lacks its full stop, which swallows the test",
    },
    Erratum {
        case: "tax_case_25",
        find: "\npatient(",
        replace: "\npatient_(",
        why: "`patient(` is a typo for the role `patient_(`",
    },
    Erratum {
        case: "s1_a_2_neg",
        find: "s63(alice,2017,2102047).",
        replace: "s63(alice,2017,210204).",
        why: "the text states a taxable income of $210204",
    },
    Erratum {
        case: "tax_case_47",
        find: "amount_(alice_pays_insurance,532).",
        replace: "amount_(alice_pays_insurance,5322).",
        why: "the text states $5322 paid into health insurance",
    },
    Erratum {
        case: "s152_d_2_E_pos",
        find: "agent_(alice_and_bob,bob).",
        replace: "agent_(alice_and_bob,charlie).",
        why: "the text states that Charlie, not Bob, is Alice's father",
    },
];

/// Applies the errata of `case` to `source`; returns the corrected text and
/// a description of each correction made.
pub fn apply(case: &str, source: &str) -> (String, Vec<String>) {
    let mut text = source.to_string();
    let mut applied = Vec::new();
    for e in ERRATA.iter().filter(|e| e.case == case) {
        let n = text.matches(e.find).count();
        if n == 0 {
            tracing::warn!(case, find = e.find, "erratum does not apply: text not found");
            continue;
        }
        text = text.replace(e.find, e.replace);
        let note = format!("{}: {} ({} -> {})", case, e.why, e.find.trim(), e.replace.trim());
        tracing::info!("{note}");
        applied.push(note);
    }
    (text, applied)
}
