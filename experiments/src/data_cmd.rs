//! `lexlog data stats` and `lexlog data show`.

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use lexlog_data::{linear, stats, Dataset};

#[derive(Subcommand)]
pub enum DataCommand {
    /// Counts: cases by split and kind, statute nodes and leaves, IR sizes.
    Stats {
        #[arg(long)]
        json: bool,
    },
    /// A case's text, question, answer and gold IR in linear form.
    Show {
        case: String,
        /// Print event ids as written in SARA instead of canonical ids.
        #[arg(long)]
        raw_ids: bool,
    },
}

pub fn run(cmd: DataCommand) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    match cmd {
        DataCommand::Stats { json } => {
            let s = stats::dataset_stats(&data);
            if json {
                println!("{}", serde_json::to_string_pretty(&s)?);
                return Ok(());
            }
            println!("SARA at {}: {} cases", s.dir, s.cases);
            println!("{:<6} {:>10} {:>5} {:>6}", "split", "entailment", "tax", "total");
            for c in &s.splits {
                println!("{:<6} {:>10} {:>5} {:>6}", c.split, c.entailment, c.tax, c.total);
            }
            println!(
                "statutes: {} sections, {} nodes (with the root), {} leaves",
                s.statute_sections, s.statute_nodes, s.statute_leaves
            );
            let z = &s.ir_size;
            println!("IR size (median / max)   Prolog        linear (canonical ids)");
            println!(
                "  characters             {:>6.0} / {:<6} {:>6.0} / {:<6}",
                z.prolog_chars.median, z.prolog_chars.max, z.linear_chars.median, z.linear_chars.max
            );
            println!(
                "  tokens                 {:>6.0} / {:<6} {:>6.0} / {:<6}",
                z.prolog_tokens.median, z.prolog_tokens.max, z.linear_tokens.median, z.linear_tokens.max
            );
            println!(
                "  median linear/Prolog ratio: {:.0} % of characters, {:.0} % of tokens",
                100.0 * z.median_char_ratio,
                100.0 * z.median_token_ratio
            );
            println!("cases with `for` groups: {}", s.cases_with_groups);
            println!("errata applied: {}", s.corrections.len());
            for c in &s.corrections {
                println!("  {c}");
            }
        }
        DataCommand::Show { case, raw_ids } => {
            let Some(c) = data.case(&case) else {
                bail!("no case named {case} in {}", data.dir.display());
            };
            let split = data.split_of(&c.id).map_or("none", |s| s.as_str());
            println!("# {} ({:?}, {split} split)", c.id, c.kind);
            println!("\n## Text\n{}\n\n## Question\n{}\n\n## Answer\n{}\n", c.text, c.question, c.answer);
            let ir = if raw_ids { c.ir.clone() } else { linear::canonical_ids(&c.ir) };
            println!("## IR\n{}", linear::print(&ir));
            for note in &c.corrections {
                println!("(corrected: {note})");
            }
        }
    }
    Ok(())
}
