"""`NFSPConfig`'s presets hold the papers' settings."""

import pytest

from nfsp_spiel import nfsp


def test_presets_hold_the_papers_values():
  leduc = nfsp.NFSPConfig.leduc()
  dqn = leduc.best_response
  assert isinstance(dqn, nfsp.DQNConfig)
  assert (leduc.hidden_layers, dqn.replay_buffer_capacity,
          leduc.reservoir_buffer_capacity, leduc.reservoir_buffer_kind) == (
              (64,), 200_000, 2_000_000, "reservoir")
  assert (dqn.learning_rate, leduc.sl_learning_rate, leduc.batch_size,
          leduc.updates_per_learn, dqn.target_refit_every,
          leduc.anticipatory_param, dqn.epsilon_start) == (
              0.1, 0.005, 128, 2, 300, 0.1, 0.06)
  # Heinrich's public Leduc code: 128 game steps (64 of one agent's) per
  # iteration, epsilon 0.06 / (1 + 0.01 sqrt(k)), learning from 1000 records,
  # Torch7's initialisation, rewards scaled by 0.0385.
  assert (leduc.learn_every, dqn.epsilon_schedule, dqn.epsilon_decay,
          leduc.min_buffer_size_to_learn, leduc.init, leduc.reward_scale) == (
              64, "polynomial", 0.01, 1000, "torch", 0.0385)
  lhe = nfsp.NFSPConfig.lhe()
  assert (lhe.hidden_layers, lhe.best_response.replay_buffer_capacity,
          lhe.reservoir_buffer_capacity, lhe.reservoir_buffer_kind,
          lhe.reservoir_buffer_min_probability,
          lhe.sl_learning_rate, lhe.batch_size, lhe.learn_every,
          lhe.best_response.target_refit_every,
          lhe.best_response.epsilon_start) == ((1024, 512, 1024, 512), 600_000, 30_000_000,
                                 "exponential_reservoir", 0.25, 0.01, 256,
                                 128, 1000, 0.08)
  assert lhe.reward_scale == pytest.approx(1 / 480)
  assert lhe.memory_dtype == "bits"  # 30m records in 1.1 GB
  assert nfsp.NFSPConfig.dqn().anticipatory_param == 1.0
  assert nfsp.NFSPConfig.leduc(anticipatory_param=0.5).anticipatory_param == 0.5
