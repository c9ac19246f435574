//! The solver's tax against an independent computation, written here
//! straight from the statute text, over a grid of synthetic filers: single,
//! joint and married filing separately; standard or itemized deductions;
//! aged or not; a spouse with or without income; incomes across every
//! bracket and the §151(d)(3) and §68 thresholds; a year before 2018 and one
//! in §63(c)(7)'s window. Cases are written in the IR's linear form.

use lexlog_data::linear;
use lexlog_solver::{Prediction, Solver};

#[derive(Clone, Copy, PartialEq, Debug)]
enum Filing {
    Single,
    Joint,
    Separate,
}

/// Dollars as cents: every figure of these sections is a whole number of
/// cents, so the arithmetic below is exact.
fn cents(dollars: i64) -> i64 {
    dollars * 100
}

/// §1(a), (c), (d) on taxable income (in cents), in thousandths of a cent:
/// exact, before rounding.
fn bracket_tax(filing: Filing, ti: i64) -> i64 {
    // (upper limit in dollars, base in cents, rate in tenths of a percent)
    let table: [(i64, i64, i64); 5] = match filing {
        Filing::Joint => [(36_900, 0, 150), (89_150, 553_500, 280), (140_000, 2_016_500, 310), (250_000, 3_592_850, 360), (i64::MAX / 1000, 7_552_850, 396)],
        Filing::Single => [(22_100, 0, 150), (53_500, 331_500, 280), (115_000, 1_210_700, 310), (250_000, 3_117_200, 360), (i64::MAX / 1000, 7_977_200, 396)],
        Filing::Separate => [(18_450, 0, 150), (44_575, 276_750, 280), (70_000, 1_008_250, 310), (125_000, 1_796_425, 360), (i64::MAX / 1000, 3_776_425, 396)],
    };
    let mut lower = 0;
    for (upper, base, rate) in table {
        if ti <= cents(upper) {
            return base * 1000 + (ti - cents(lower)) * rate;
        }
        lower = upper;
    }
    unreachable!("the last bracket has no upper limit")
}

/// Thousandths of a cent to dollars; half a dollar and more rounds up.
fn round_to_dollars(m: i64) -> i64 {
    (m + 50_000).div_euclid(100_000)
}

struct Filer {
    filing: Filing,
    year: i64,
    income: i64,
    itemized: i64,
    aged: bool,
    spouse_income: i64,
}

impl Filer {
    fn expected_tax(&self) -> i64 {
        let window = (2018..=2025).contains(&self.year);
        let agi = self.income + if self.filing == Filing::Joint { self.spouse_income } else { 0 };
        // §68(b) applicable amount, also §151(d)(3)'s threshold.
        let applicable = match self.filing {
            Filing::Joint => 300_000,
            Filing::Single => 250_000,
            Filing::Separate => 150_000,
        };
        // §151: the taxpayer, the spouse on a joint return, and the spouse
        // without income on a separate one; zero in the window.
        let exemptions = match self.filing {
            Filing::Single => 1,
            Filing::Joint => 2,
            Filing::Separate => 1 + (self.spouse_income == 0) as i64,
        };
        let mut exemption = if window { 0 } else { cents(2000) };
        if agi > applicable && exemption > 0 {
            let step = if self.filing == Filing::Separate { 1250 } else { 2500 };
            let steps = (agi - applicable + step - 1) / step;
            let percent = (2 * steps).min(100);
            exemption -= exemption * percent / 100;
        }
        let deduction = if self.itemized > 0 {
            let mut d = cents(self.itemized);
            if agi > applicable && !window {
                d -= (cents(agi - applicable) * 3 / 100).min(cents(self.itemized) * 80 / 100);
            }
            d
        } else {
            let basic = if window { 12_000 } else { 3000 } * if self.filing == Filing::Joint { 2 } else { 1 };
            let aged = if !self.aged { 0 } else if self.filing == Filing::Single { 750 } else { 600 };
            cents(basic + aged)
        };
        let ti = (cents(agi) - deduction - exemptions * exemption).max(0);
        round_to_dollars(bracket_tax(self.filing, ti))
    }

    fn case(&self) -> String {
        let y = self.year;
        let mut s = format!("income i1 agent=ann amount={} start={y}-12-31\n", self.income);
        if self.filing != Filing::Single {
            s += "marriage m1 agent=ann agent=ben start=2000-05-05\n";
            if self.spouse_income > 0 {
                s += &format!("income i2 agent=ben amount={} start={y}-12-31\n", self.spouse_income);
            }
        }
        if self.filing == Filing::Joint {
            s += &format!("joint_return j1 agent=ann agent=ben start={y}-01-01 end={y}-12-31\n");
        }
        if self.itemized > 0 {
            s += &format!("deduction d1 agent=ann amount={} start={y}-12-31\n", self.itemized);
        }
        if self.aged {
            s += "birth b1 agent=ann start=1940-02-02\n";
        }
        s + &format!("query tax ann {y}\n")
    }
}

#[test]
fn tax_matches_an_independent_computation_over_a_grid_of_filers() {
    let solver = Solver::new().unwrap();
    let incomes = [9000, 22_100, 30_000, 53_500, 90_000, 140_000, 200_000, 250_000, 252_500, 252_501, 260_000, 300_000, 302_500, 310_000, 372_500, 400_000, 1_000_000];
    let (mut checked, mut wrong) = (0, Vec::new());
    for filing in [Filing::Single, Filing::Joint, Filing::Separate] {
        let spouse_incomes: &[i64] = if filing == Filing::Single { &[0] } else { &[0, 5000] };
        for &spouse_income in spouse_incomes {
            for aged in [false, true] {
                for year in [2016, 2019] {
                    for income in incomes {
                        for itemized in [0, 5000, 60_000] {
                            let filer = Filer { filing, year, income, itemized, aged, spouse_income };
                            let src = filer.case();
                            let ir = linear::parse(&src).unwrap();
                            let got = solver.solve("grid", &ir).map(|o| o.prediction);
                            let want = filer.expected_tax();
                            checked += 1;
                            if !matches!(got, Ok(Prediction::Dollars(d)) if d == want) {
                                wrong.push(format!("{filing:?} {year} income {income} itemized {itemized} aged {aged} spouse {spouse_income}: want {want}, got {got:?}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {checked} filers wrong:\n{}", wrong.len(), wrong.join("\n"));
    assert_eq!(checked, 1020);
}
