//! The person's yes or no for a tool call: the loop waits on a channel whose sender the lane
//! keeps until the call's approval card is answered (or the run ends).

use super::state::Lane;
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::{Approval, ApprovalRequest, Approver};

pub struct PageApprover {
    pub lane: Lane,
}

impl Approver for PageApprover {
    fn approve(&self, request: &ApprovalRequest) -> LocalBoxFuture<'static, Approval> {
        let (answer, answered) = oneshot::channel();
        let call_id = request.call_id.clone();
        self.lane.approvals.try_update_value(|waiting| {
            waiting.insert(call_id, answer);
        });
        Box::pin(async move {
            answered.await.unwrap_or(Approval::Deny {
                reason: Some("The approval was withdrawn.".to_owned()),
            })
        })
    }
}
