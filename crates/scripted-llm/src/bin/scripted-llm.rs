//! `scripted-llm --script FILE [--addr 127.0.0.1:PORT]`: serve a script over HTTP until killed.
//!
//! Prints `http://ADDR/v1` on the first line of stdout once listening.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut script_path = None;
    let mut addr = "127.0.0.1:0".to_string();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--script" => script_path = args.next(),
            "--addr" => {
                if let Some(a) = args.next() {
                    addr = a;
                }
            }
            "-h" | "--help" => {
                println!(
                    "usage: scripted-llm --script FILE.json|FILE.yaml [--addr 127.0.0.1:PORT]"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("scripted-llm: unknown argument {other:?}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = script_path else {
        eprintln!("scripted-llm: --script FILE is required");
        return ExitCode::from(2);
    };
    let script = match scripted_llm::Script::from_file(std::path::Path::new(&path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("scripted-llm: {e}");
            return ExitCode::from(2);
        }
    };
    let server = match scripted_llm::ScriptedServer::start_on(script, &addr) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("scripted-llm: cannot listen on {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    println!("{}", server.url());
    server.wait();
    ExitCode::SUCCESS
}
