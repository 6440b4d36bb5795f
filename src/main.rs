fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(idemlint::cli::main())
}
