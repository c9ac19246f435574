//! `lexlog`: the command-line entry point. Arguments are parsed here; the
//! work is done by the library crates.

mod ablate_cmd;
mod cv;
mod data_cmd;
mod eval_cmd;
mod eval_parser_cmd;
mod explain_cmd;
mod home_costs;
mod joint;
mod parse_cmd;
mod parser_cmd;
mod perturb_cmd;
mod shares;
mod shifts;
mod variants_cmd;
mod solve_cmd;
mod train_cmd;
mod vote;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "lexlog", version, about = "Statutory reasoning on SARA: parse case text, solve with the statutes")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Inspect the SARA dataset (read from $SARA_DIR).
    #[command(subcommand)]
    Data(data_cmd::DataCommand),
    /// Run the solver on the gold facts of SARA-format case files.
    Solve(solve_cmd::SolveArgs),
    /// Show which subsections apply to a case, with the statute text.
    Explain(explain_cmd::ExplainArgs),
    /// Inspect the parser's target representation.
    #[command(subcommand)]
    Parser(parser_cmd::ParserCommand),
    /// Train the parser on the train split.
    Train(train_cmd::TrainArgs),
    /// Evaluate a trained parser: fact F1, exact match, oracle@k.
    EvalParser(eval_parser_cmd::EvalParserArgs),
    /// The joint evaluation: text -> parser -> solver-checked beams -> answer.
    Eval(eval_cmd::EvalArgs),
    /// The joint pipeline on a text and question of one's own: the parser's beams, each checked and solved, and the answer.
    Parse(parse_cmd::ParseArgs),
    /// Ablations of the pipeline: table, JSON and plots.
    Ablate(ablate_cmd::AblateArgs),
    /// The solver on perturbed gold facts: each amount, date and year moved alone, and where the answer changes.
    Perturb(perturb_cmd::PerturbArgs),
    /// Copies of a split's case files with new names and scaled amounts (for `eval --cases`).
    Variants(variants_cmd::VariantsArgs),
    /// Which device training and decoding would use (CUDA if libtorch finds it).
    Device,
}

fn main() -> Result<()> {
    default_sigpipe();
    // Before any tch call: load libtorch's CUDA library where it exists.
    lexlog_parser::device::load_cuda();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Data(cmd) => data_cmd::run(cmd),
        Command::Solve(args) => solve_cmd::run(args),
        Command::Explain(args) => explain_cmd::run(args),
        Command::Parser(cmd) => parser_cmd::run(cmd),
        Command::Train(args) => train_cmd::run(args),
        Command::EvalParser(args) => eval_parser_cmd::run(args),
        Command::Eval(args) => eval_cmd::run(args),
        Command::Parse(args) => parse_cmd::run(args),
        Command::Ablate(args) => ablate_cmd::run(args),
        Command::Perturb(args) => perturb_cmd::run(args),
        Command::Variants(args) => variants_cmd::run(args),
        Command::Device => {
            println!("{}", lexlog_parser::device::describe());
            Ok(())
        }
    }
}

/// Output cut short by its reader (`lexlog ... | head`) ends the process
/// quietly, as it does other Unix tools, instead of a panic in `println!`
/// (Rust's runtime ignores SIGPIPE).
fn default_sigpipe() {
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: restores one signal's default disposition, before any thread starts.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}
