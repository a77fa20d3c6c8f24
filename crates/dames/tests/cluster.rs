//! Three `dames serve` nodes on one PostgreSQL and one Redis (docs/cluster.md): players on
//! different nodes play together live, presence is cluster-wide, a node killed with SIGKILL loses
//! no acknowledged move and its clients go on with another node.
#![cfg(feature = "server")]

mod common;

use serde_json::json;

use common::cluster::Cluster;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_on_one_node_is_served_by_the_others() {
    let cluster = Cluster::start(3);
    let mut ana = cluster.client(0);
    ana.create(json!({"game": "draughts", "name": "Ana"})).await;
    let code = ana.code.clone().unwrap();
    let mut bo = cluster.client(1);
    bo.join(&code, "Bo").await;
    let mut cy = cluster.client(2);
    cy.code = Some(code.clone());
    let room = cy.room().await;
    assert_eq!(room["seats"].as_array().unwrap().len(), 2, "{room}");
}
