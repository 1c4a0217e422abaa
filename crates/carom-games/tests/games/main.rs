//! Billiards games, one binary: tables, racks and spots, shots, aiming, the rules and
//! their verdicts, the agent and batches of shots, one theme per module.

mod agent;
mod aim;
mod along_cushion;
mod batch;
mod choices;
mod game;
mod many;
mod player;
mod position;
mod respond;
mod rest;
mod routes;
mod setups;
mod shot;
mod tables;
