//! The closed vocabulary of the IR: event types, roles and the auxiliary
//! predicates that cases may state directly, plus section identifiers.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vmeta])* $variant),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }

            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($text => Some($name::$variant),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// The type of a neo-Davidsonian event (SARA writes `marriage_(e)`).
    /// Kinship types read "agent is the <kind> of patient".
    EventKind {
        AmericanEmployer => "american_employer",
        AttendingClasses => "attending_classes",
        Birth => "birth",
        Blindness => "blindness",
        Brother => "brother",
        BrotherInLaw => "brother_in_law",
        Business => "business",
        BusinessTrust => "business_trust",
        Citizenship => "citizenship",
        Daughter => "daughter",
        DaughterInLaw => "daughter_in_law",
        Death => "death",
        Deduction => "deduction",
        Disability => "disability",
        Divorce => "divorce",
        EducationalInstitution => "educational_institution",
        Enrollment => "enrollment",
        Father => "father",
        FatherInLaw => "father_in_law",
        Hospital => "hospital",
        Income => "income",
        Incarceration => "incarceration",
        InternationalOrganization => "international_organization",
        JointReturn => "joint_return",
        LegalSeparation => "legal_separation",
        Marriage => "marriage",
        MedicalInstitution => "medical_institution",
        MedicalPatient => "medical_patient",
        Migration => "migration",
        Mother => "mother",
        MotherInLaw => "mother_in_law",
        NonresidentAlien => "nonresident_alien",
        NursesTrainingSchool => "nurses_training_school",
        Payment => "payment",
        PenalInstitution => "penal_institution",
        Plan => "plan",
        Residence => "residence",
        Retirement => "retirement",
        Service => "service",
        Sibling => "sibling",
        Sister => "sister",
        SisterInLaw => "sister_in_law",
        Son => "son",
        SonInLaw => "son_in_law",
        Stepbrother => "stepbrother",
        Stepdaughter => "stepdaughter",
        Stepfather => "stepfather",
        Stepmother => "stepmother",
        Stepsister => "stepsister",
        Stepson => "stepson",
        Termination => "termination",
    }
}

vocabulary! {
    /// A thematic role linking an event to a participant or attribute.
    Role {
        Agent => "agent",
        Patient => "patient",
        Start => "start",
        End => "end",
        Amount => "amount",
        Purpose => "purpose",
        Location => "location",
        Beneficiary => "beneficiary",
        Means => "means",
        Reason => "reason",
        Type => "type",
        Destination => "destination",
    }
}

impl Role {
    /// Roles that hold at most one value per event (checked by the solver).
    pub fn is_functional(self) -> bool {
        matches!(self, Role::Start | Role::End | Role::Amount)
    }
}

vocabulary! {
    /// Predicates other than sections that a case may state or ask directly.
    Aux {
        /// `country(place, country)`: the place lies in the country
        /// (SARA writes `country_/2`).
        Country => "country",
        GrossIncome => "gross_income",
        TotalWagesEmployer => "total_wages_employer",
        Tax => "tax",
    }
}

/// A statute node or SARA section predicate such as `s7703_b_3`, `s1_a_i` or
/// `s151_c_applies`: `s`, the section number, then `_`-separated labels.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SectionId(String);

impl SectionId {
    pub fn parse(name: &str) -> Option<SectionId> {
        let rest = name.strip_prefix('s')?;
        let mut parts = rest.split('_');
        let number = parts.next()?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if parts.any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_alphanumeric())) {
            return None;
        }
        Some(SectionId(name.to_string()))
    }

    /// The section number: 7703 for `s7703_b_3`.
    pub fn section(&self) -> u32 {
        let digits = self.0[1..].split('_').next().unwrap_or_default();
        digits.parse().unwrap_or(0)
    }

    /// The labels after the section number: `["b", "3"]` for `s7703_b_3`.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.0.split('_').skip(1)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is `outer` or a subsection of it: `s151_d_5_A` is
    /// within `s151_d_5` and `s151`, not within `s15`.
    pub fn is_within(&self, outer: &SectionId) -> bool {
        self.0.strip_prefix(outer.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
    }
}

impl fmt::Display for SectionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for SectionId {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        SectionId::parse(&s).ok_or_else(|| format!("not a section id: {s}"))
    }
}

impl From<SectionId> for String {
    fn from(id: SectionId) -> String {
        id.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_names_round_trip() {
        for k in EventKind::ALL {
            assert_eq!(EventKind::from_name(k.as_str()), Some(*k));
        }
        for r in Role::ALL {
            assert_eq!(Role::from_name(r.as_str()), Some(*r));
        }
        assert!(EventKind::ALL.len() >= 50);
    }

    #[test]
    fn section_ids() {
        let id = SectionId::parse("s7703_b_3").unwrap();
        assert_eq!(id.section(), 7703);
        assert_eq!(id.labels().collect::<Vec<_>>(), ["b", "3"]);
        assert!(SectionId::parse("s151_c_applies").is_some());
        assert!(SectionId::parse("s").is_none());
        assert!(SectionId::parse("s1__a").is_none());
        assert!(SectionId::parse("sx").is_none());
        assert!(SectionId::parse("tax").is_none());
        let s = |x: &str| SectionId::parse(x).unwrap();
        assert!(s("s151_d_5_A").is_within(&s("s151_d_5")) && s("s151").is_within(&s("s151")));
        assert!(!s("s151_d").is_within(&s("s15")) && !s("s151").is_within(&s("s151_d")));
    }
}
