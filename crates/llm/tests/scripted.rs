//! The client against the scripted OpenAI-compatible server (real HTTP on loopback).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::time::{Duration, Instant};

use scripted_llm::{Script, ScriptedServer};
use serde_json::{Value, json};
use slopguard_llm::repair::RepairPass;
use slopguard_llm::{BlockingClient, FormatSupport, LlmConfig, LlmError, Message, Role};

fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["answer"],
        "properties": {"answer": {"type": "integer"}}
    })
}

fn client(url: &str) -> BlockingClient {
    let mut cfg = LlmConfig::single(url, "scripted-model");
    cfg.backoff = Duration::from_millis(10);
    BlockingClient::new(cfg).unwrap()
}

#[derive(Debug, serde::Deserialize, PartialEq)]
struct Answer {
    answer: i64,
}

#[test]
fn plain_json_is_accepted_and_usage_recorded() {
    let server = ScriptedServer::start(Script::new().content("{\"answer\": 42}")).unwrap();
    let c = client(&server.url());
    let a: Answer = c
        .chat_json(Role::Planner, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(a, Answer { answer: 42 });
    let usage = c.usage();
    assert_eq!(usage["planner"].requests, 1);
    assert!(usage["planner"].completion_tokens > 0);
    let req = &server.chat_requests()[0];
    assert_eq!(req["model"], "scripted-model");
    assert_eq!(req["response_format"]["type"], "json_schema");
    assert_eq!(req["response_format"]["json_schema"]["schema"], schema());
    assert_eq!(req["max_tokens"], 1536);
}

#[test]
fn fenced_json_with_trailing_commas_is_repaired_without_extra_request() {
    let server = ScriptedServer::start(Script::new().fenced_json("{\"answer\": 7,}")).unwrap();
    let c = client(&server.url());
    let r = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(r.value, json!({"answer": 7}));
    assert_eq!(
        r.repairs,
        vec![RepairPass::Extract, RepairPass::TrailingCommas]
    );
    assert_eq!(r.corrections, 0);
    assert_eq!(server.chat_requests().len(), 1);
}

#[test]
fn schema_violation_gets_a_correction_turn() {
    let server = ScriptedServer::start(
        Script::new()
            .content("{\"answer\": \"forty-two\"}")
            .content("{\"answer\": 42}"),
    )
    .unwrap();
    let c = client(&server.url());
    let r = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(r.value["answer"], 42);
    assert_eq!(r.corrections, 1);
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 2);
    let msgs = reqs[1]["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3, "original + assistant echo + correction");
    assert_eq!(msgs[1]["role"], "assistant");
    let correction = msgs[2]["content"].as_str().unwrap();
    assert!(
        correction.contains("/answer: expected \"integer\""),
        "{correction}"
    );
}

#[test]
fn correction_turns_are_bounded() {
    let server =
        ScriptedServer::start(Script::new().content("no json, sorry").repeat_last()).unwrap();
    let mut cfg = LlmConfig::single(&server.url(), "");
    cfg.correction_turns = 2;
    let c = BlockingClient::new(cfg).unwrap();
    let err = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap_err();
    match err {
        LlmError::InvalidJson { attempts, .. } => assert_eq!(attempts, 3),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(server.chat_requests().len(), 3);
}

#[test]
fn finish_reason_length_is_truncation() {
    let server = ScriptedServer::start(Script::new().truncated("{\"answer\": 4")).unwrap();
    let c = client(&server.url());
    let err = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap_err();
    assert!(
        matches!(
            err,
            LlmError::Truncated {
                max_tokens: 2048,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn http_500_is_not_retried() {
    let server =
        ScriptedServer::start(Script::new().status(500, "boom").content("{\"answer\": 1}"))
            .unwrap();
    let c = client(&server.url());
    let err = c.chat(Role::Worker, &[Message::user("q")]).unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 500, .. }), "{err:?}");
    assert_eq!(server.chat_requests().len(), 1);
}

#[test]
fn a_busy_server_is_waited_out_for_its_retry_after_then_answers() {
    let server = ScriptedServer::start(
        Script::new()
            .status_retry_after(429, 1, "rate limited")
            .content("{\"answer\": 7}"),
    )
    .unwrap();
    let c = client(&server.url());
    let start = Instant::now();
    let a: Answer = c
        .chat_json(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(a.answer, 7);
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "Retry-After: 1 was not waited"
    );
    assert_eq!(server.chat_requests().len(), 2);
}

#[test]
fn busy_answers_are_retried_a_bounded_number_of_times_then_named() {
    let server = ScriptedServer::start(
        Script::new()
            .status(503, "overloaded")
            .status(502, "bad gateway")
            .status(503, "still overloaded")
            .content("{\"answer\": 1}"),
    )
    .unwrap();
    let c = client(&server.url()); // 2 retries
    let err = c.chat(Role::Worker, &[Message::user("q")]).unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 503, .. }), "{err:?}");
    assert!(err.to_string().contains("still overloaded"), "{err}");
    assert_eq!(server.chat_requests().len(), 3);
}

#[test]
fn a_retry_after_longer_than_a_minute_is_not_waited() {
    let server = ScriptedServer::start(
        Script::new()
            .status_retry_after(503, 3600, "come back in an hour")
            .content("{\"answer\": 1}"),
    )
    .unwrap();
    let c = client(&server.url());
    let start = Instant::now();
    let err = c.chat(Role::Worker, &[Message::user("q")]).unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 503, .. }), "{err:?}");
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(server.chat_requests().len(), 1);
}

#[test]
fn garbage_and_cut_off_answers_are_asked_again() {
    let server = ScriptedServer::start(
        Script::new()
            .text("<html>502 proxy error</html>")
            .text("{\"choices\": [{\"message\": {\"content\": \"{\\\"ans")
            .content("{\"answer\": 3}"),
    )
    .unwrap();
    let c = client(&server.url());
    let a: Answer = c
        .chat_json(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(a.answer, 3);
    assert_eq!(server.chat_requests().len(), 3);

    let always = ScriptedServer::start(Script::new().text("not json").repeat_last()).unwrap();
    let err = client(&always.url())
        .chat(Role::Worker, &[Message::user("q")])
        .unwrap_err();
    assert!(matches!(err, LlmError::BadResponse { .. }), "{err:?}");
    assert!(err.to_string().contains("not json"), "{err}");
    assert_eq!(always.chat_requests().len(), 3);
}

#[test]
fn a_server_that_resets_every_connection_is_unreachable_after_bounded_retries() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            // Read the start of the request, then hang up without an answer.
            let mut buf = [0u8; 64];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            drop(stream);
        }
    });
    let err = client(&url)
        .chat(Role::Worker, &[Message::user("q")])
        .unwrap_err();
    assert!(err.is_unreachable(), "{err:?}");
    assert!(err.to_string().contains(&url), "{err}");
    let n = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert!((3..=4).contains(&n), "{n} connections for 2 retries");
}

#[test]
fn timeout_is_retried_then_succeeds() {
    let server = ScriptedServer::start(
        Script::new()
            .delayed(2500, "{\"answer\": 1}")
            .content("{\"answer\": 2}"),
    )
    .unwrap();
    let mut cfg = LlmConfig::single(&server.url(), "").with_timeout(Duration::from_secs(1));
    cfg.backoff = Duration::from_millis(10);
    cfg.retries = 1;
    let c = BlockingClient::new(cfg).unwrap();
    let start = Instant::now();
    let a: Answer = c
        .chat_json(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(a.answer, 2);
    assert!(start.elapsed() >= Duration::from_secs(1));
    assert_eq!(server.chat_requests().len(), 2);
}

#[test]
fn timeout_without_retries_is_an_error_naming_the_url() {
    let server = ScriptedServer::start(Script::new().delayed(2500, "{}")).unwrap();
    let mut cfg = LlmConfig::single(&server.url(), "").with_timeout(Duration::from_secs(1));
    cfg.retries = 0;
    let c = BlockingClient::new(cfg).unwrap();
    let err = c.chat(Role::Worker, &[Message::user("q")]).unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
    assert!(err.to_string().contains(&server.url()));
}

#[test]
fn dead_endpoint_is_unreachable_after_bounded_retries() {
    // Bind and drop a listener to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let mut cfg = LlmConfig::single(&url, "");
    cfg.retries = 2;
    cfg.backoff = Duration::from_millis(20);
    let c = BlockingClient::new(cfg).unwrap();
    let start = Instant::now();
    let err = c.chat(Role::Planner, &[Message::user("q")]).unwrap_err();
    assert!(err.is_unreachable());
    assert!(err.to_string().contains(&url), "{err}");
    // 20 ms + 40 ms of backoff at least.
    assert!(start.elapsed() >= Duration::from_millis(60));
    let h = c.health(Role::Planner);
    assert!(!h.reachable);
    assert!(h.error.unwrap().contains(&port.to_string()));
}

#[test]
fn response_format_falls_back_and_is_remembered() {
    let server = ScriptedServer::start(
        Script::new()
            .reject_response_format("json_schema")
            .reject_response_format("json_object")
            .content("{\"answer\": 1}")
            .content("{\"answer\": 2}"),
    )
    .unwrap();
    let c = client(&server.url());
    let r = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(r.value["answer"], 1);
    assert_eq!(
        c.inner().format_support(&server.url()),
        Some(FormatSupport::None)
    );
    let kinds: Vec<Value> = server
        .chat_requests()
        .iter()
        .map(|b| b["response_format"]["type"].clone())
        .collect();
    assert_eq!(
        kinds,
        vec![json!("json_schema"), json!("json_object"), Value::Null]
    );
    // The second call goes straight to the level that worked.
    let r = c
        .chat_json_value(Role::Worker, &[Message::user("q")], &schema())
        .unwrap();
    assert_eq!(r.value["answer"], 2);
    assert_eq!(server.chat_requests().len(), 4);
    assert_eq!(server.chat_requests()[3].get("response_format"), None);
}

#[test]
fn no_think_switches_are_sent() {
    let server =
        ScriptedServer::start(Script::new().content("<think>pondering</think>{\"answer\": 3}"))
            .unwrap();
    let mut cfg = LlmConfig::single(&server.url(), "m");
    cfg.no_think_suffix = true;
    cfg.thinking_template_kwarg = true;
    let c = BlockingClient::new(cfg).unwrap();
    let a: Answer = c
        .chat_json(
            Role::Reviewer,
            &[Message::system("s"), Message::user("question")],
            &schema(),
        )
        .unwrap();
    assert_eq!(a.answer, 3);
    let req = &server.chat_requests()[0];
    assert_eq!(req["messages"][1]["content"], "question\n/no_think");
    assert_eq!(req["messages"][0]["content"], "s");
    assert_eq!(req["chat_template_kwargs"]["enable_thinking"], false);
}

#[test]
fn api_key_is_sent_as_bearer() {
    let server = ScriptedServer::start(Script::new().content("hi")).unwrap();
    let mut cfg = LlmConfig::single(&server.url(), "");
    cfg.worker.api_key = Some("sekrit".into());
    let c = BlockingClient::new(cfg).unwrap();
    let r = c.chat(Role::Worker, &[Message::user("q")]).unwrap();
    assert_eq!(r.content, "hi");
    assert_eq!(r.finish_reason.as_deref(), Some("stop"));
    assert_eq!(
        server.requests()[0].authorization.as_deref(),
        Some("Bearer sekrit")
    );
}

#[test]
fn health_reports_models_and_context() {
    let server =
        ScriptedServer::start(Script::new().models(&["qwen", "other"]).context_size(4096)).unwrap();
    let c = BlockingClient::new(LlmConfig::single(&server.url(), "qwen")).unwrap();
    let h = c.health(Role::Planner);
    assert!(h.reachable);
    assert_eq!(h.models, vec!["qwen", "other"]);
    assert_eq!(h.model_listed, Some(true));
    assert_eq!(h.context_size, Some(4096));
    let c = BlockingClient::new(LlmConfig::single(&server.url(), "missing")).unwrap();
    assert_eq!(c.health(Role::Planner).model_listed, Some(false));
}

#[test]
fn a_reply_asked_for_ahead_is_given_up_when_cancelled_and_returned_otherwise() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let server =
        ScriptedServer::start(Script::new().delayed(5_000, "too late").content("in time")).unwrap();
    let c = client(&server.url());
    let sampling = slopguard_llm::Sampling::default();
    let cancel = AtomicBool::new(false);
    let given_up = std::thread::scope(|s| {
        let call = s.spawn(|| {
            c.chat_sampled_unless(Role::Worker, &[Message::user("q")], sampling, &cancel)
        });
        std::thread::sleep(Duration::from_millis(200));
        cancel.store(true, Ordering::Relaxed);
        call.join().unwrap()
    });
    assert!(given_up.is_none(), "{given_up:?}");
    let not_cancelled = AtomicBool::new(false);
    let reply = c
        .chat_sampled_unless(
            Role::Worker,
            &[Message::user("q")],
            sampling,
            &not_cancelled,
        )
        .expect("not cancelled")
        .unwrap();
    assert_eq!(reply.content, "in time");
}

#[test]
fn raw_completions_record_the_prompt_tokens_the_server_had_cached() {
    let server =
        ScriptedServer::start(Script::new().completion("a + 1").completion("a - 1")).unwrap();
    let c = client(&server.url());
    let never = std::sync::atomic::AtomicBool::new(false);
    let prompt = format!("<|fim_prefix|>{}<|fim_suffix|>", "x = 1\n".repeat(40));
    let mut cached = Vec::new();
    for _ in 0..2 {
        let reply = c
            .complete_sampled_unless(
                Role::Worker,
                &prompt,
                &[],
                slopguard_llm::Sampling::default(),
                &never,
            )
            .unwrap()
            .unwrap();
        cached.push(reply.usage.cached_tokens);
    }
    // The first prompt was read whole; the second, the same, came from the server's cache.
    assert_eq!(cached[0], 0);
    assert_eq!(cached[1], prompt.len() as u64 / 4);
    assert_eq!(c.usage()["worker"].cached_tokens, cached[1]);
}
