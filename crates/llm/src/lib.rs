//! slopguard-llm (under construction).
