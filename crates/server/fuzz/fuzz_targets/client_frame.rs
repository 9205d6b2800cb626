//! Client WebSocket frames: any text is either a valid frame or a
//! `bad_message` error, never a panic; valid frames are small.
#![no_main]
use arbiter_server::protocol::{ClientFrame, ClientMsg, MAX_CLIENT_FRAME};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(frame) = ClientFrame::parse(text) {
        assert!(text.len() <= MAX_CLIENT_FRAME);
        match frame.msg {
            ClientMsg::Move { uci, text } => match (uci, text) {
                (Some(u), None) => assert!(u.len() <= 5),
                (None, Some(t)) => assert!(t.len() <= arbiter_server::protocol::MAX_MOVE_TEXT),
                _ => panic!("a move has exactly one of uci and text"),
            },
            ClientMsg::Touch { square, .. } => assert_eq!(square.len(), 2),
            _ => {}
        }
    }
});
