#![forbid(unsafe_code)]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(idemlint::cli::main())
}

// Parsing a large spec is millions of small allocations; mimalloc makes them markedly cheaper
// than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
