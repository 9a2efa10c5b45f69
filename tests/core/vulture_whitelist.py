"""Names vulture reports as unused although something does use them, each with the reason.

Read by tests/core/test_dead_code.py as extra source for vulture: a name written here counts as
used. Every line carries `# why`; an entry vulture would no longer report is stale and fails
the test. `_.name` is an attribute or method, a bare name a module-level function or class.
Pydantic validators are not listed: the scan ignores their decorators instead.
"""

# --- called by Python, Mesa, pydantic or LangChain -------------------------------------------------
__getattr__  # PEP 562 module __getattr__ in mam_bench/__init__.py: Python calls it for lazy imports
_.__class__  # MesaWorld sets its model's `random.__class__` (Python reads it), so only that generator orders agents
_.model_config  # pydantic reads each model's ConfigDict (frozen, extra="forbid")
_._llm_type  # LangChain BaseChatModel hook of the local model
_._identifying_params  # LangChain BaseChatModel hook of the local model
_._generate  # LangChain BaseChatModel hook of the local model
run_manager  # argument of LangChain's _generate signature, which the local model must keep
_.load_overload  # numba calls it: numba_start gives the kernel dispatchers' caches a load without the target refresh
_.output_dir  # numba.pycc's CC reads it: where fast.native builds the kernel's native module
_.verbose  # numba.pycc's CC reads it (fast.native builds quietly)

# --- named by text: entry points (pyproject.toml) and "module:attr" registrations --------------------
PursuitWorld  # WorldRegistration.world "module:attr" text
SynchronizationWorld  # WorldRegistration.world "module:attr" text
ForagingWorld  # WorldRegistration.world "module:attr" text
FlockingWorld  # WorldRegistration.world "module:attr" text
TransportWorld  # WorldRegistration.world "module:attr" text
BoltzmannWorld  # WorldRegistration.world "module:attr" text (worked example)
VoterWorld  # WorldRegistration.world "module:attr" text (worked example)
CivilViolenceWorld  # WorldRegistration.world "module:attr" text (worked example)
BoltzmannHeuristic  # WorldRegistration.heuristic "module:attr" text (worked example)
VoterHeuristic  # WorldRegistration.heuristic "module:attr" text (worked example)
SupplyChainWorld  # WorldRegistration.world "module:attr" text
SupplyChainHeuristic  # WorldRegistration.heuristic "module:attr" text
SocialMediaWorld  # WorldRegistration.world "module:attr" text
SocialMediaHeuristic  # WorldRegistration.heuristic "module:attr" text
SocialMediaPrompts  # WorldRegistration.prompts "module:attr" text
CivilViolenceHeuristic  # WorldRegistration.heuristic "module:attr" text (worked example)
CascadeHeuristic  # WorldRegistration.heuristic "module:attr" text
make_crafting_heuristic  # WorldRegistration.heuristic "module:attr" text
make_swarm_heuristic  # WorldRegistration.heuristic "module:attr" text
judge_outcomes  # WorldRegistration.judge "module:attr" text
SchellingHeuristic  # WorldRegistration.heuristic "module:attr" text
SchellingLandscape  # WorldRegistration.landscape_kernel "module:attr" text (landscape runs without Mesa)
CascadeLandscape  # WorldRegistration.landscape_kernel "module:attr" text (the cascade's landscape kernel)
SchellingPrompts  # WorldRegistration.prompts "module:attr" text
CascadePrompts  # WorldRegistration.prompts "module:attr" text
CraftingPrompts  # WorldRegistration.prompts "module:attr" text
SwarmPrompts  # WorldRegistration.prompts "module:attr" text
chat_model_for  # entry point mam_bench.chat_models (pyproject.toml): registry.chat_model loads it
make_heuristic  # entry point mam_bench.controllers (pyproject.toml) for --policy heuristic
make_replay_controller  # entry point mam_bench.controllers (pyproject.toml) for --policy replay
make_human_controller  # entry point mam_bench.controllers (pyproject.toml) for --policy human
MimicController  # entry point mam_bench.controllers (pyproject.toml) for --policy mimic
GreedyController  # entry point mam_bench.controllers (pyproject.toml) for --policy greedy
RandomController  # entry point mam_bench.controllers (pyproject.toml) for --policy random
_.on_start  # numba.core.event.Listener hook: numba calls it on a compile (landscape's compile notice)
_.on_end  # numba.core.event.Listener hook (abstract; the compile notice needs only on_start)
agentworld_table  # WorldRegistration.analyses "module:attr" text for report --agentworld
analyse  # WorldRegistration.analyses "module:attr" text for report --analysis swarm
export_swarmbench  # WorldRegistration.exports "module:attr" text for export --format swarmbench
_.best_lift  # PairResult field (result.json key), read from the record by table.row_from_result
_.lift_area  # PairResult field (result.json key), read from the record by table.row_from_result
_.secondary_metric  # PairResult field (result.json key), read from the record by table.row_from_result

# --- public API for users (README, docs/steer-your-own-model.md) -----------------------------------
check_world  # mam_bench.testing.check_world: the conformance check users run on their own worlds
_.ordinary_agents  # MesaWorld.ordinary_agents(): a user world's outcome counts these (docs/steer-your-own-model.md)

# --- used by tests and bench/ only: seams and references that parity tests compare against ---------
decisions_of  # a shipped ceiling plan as decisions: what replays it (tests/benchmark/test_v3.py)
is_checked  # global_draws.is_checked(): whether this context's rounds are checked (tests/core/test_host_alone.py)
loaded_models  # local_model.loaded_models(): models loaded in this process (tests/llm/test_shared_model.py)
_.sampled  # sample-first decoding's counters, printed by bench/grammar_sampling.py
_.rejected  # sample-first decoding's counters, printed by bench/grammar_sampling.py
_.widened  # sample-first decoding's counters, printed by bench/grammar_sampling.py
TIMING_COLUMNS  # table.py: the executor test drops wall-clock columns before comparing tables
scan_reference_outcome  # the plain scan the numba kernel is checked against (tests/experiment/test_fast_kernel.py)
fast_reference  # the kernel's final board, held to the residents' rule (tests/schelling/test_fast_paths.py)
_.to_naive_text  # the verbose rendering the compact text is measured against (tests/schelling/test_observe.py)
_.place_prey  # test seam: tests/swarm/test_scores.py and test_parity.py place the prey by hand
STATIC_WORLD  # crafting params restoring the old static world (RESULTS.md; tests/crafting)
strategies  # a swarm task's ordinary strategies: research/swarm/reference_table.py and tests/swarm read them
cohen_kappa  # judge agreement, run by bench/crafting_judge.py and tests/crafting/test_judge.py
judge_chat_edges  # optional LLM judge of chat edges; only tests/crafting/test_cce.py calls it so far

# --- AgentWorld's verifier_utils API: its success-criteria files import these by name ----------------
get_all_inventories  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
count_item_in_inventories  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
check_agent_alive  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
get_final_hp  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
get_final_agent_status  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
get_final_agent_hp_simple  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
verify_combat  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
count_combat_kills  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
check_boss_killed_by_loot  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
count_attack_actions  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
count_crafted_items  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
check_crafted_items  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
count_chat_messages  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
get_agent_items_by_username  # models/crafting/agentworld/verifier_utils.py: imported by AgentWorld's criteria files
agent_name  # check_agent_alive's argument in upstream's signature, which its criteria files call
_.template  # ipyvue's VuetifyTemplate reads it: the Vue template of dashboards/pickers.py's widgets
_.listen  # a synced trait the key listener's Vue template reads (the keys it reports)
_.vue_cell_clicked  # ipyvue calls vue_NAME when the template calls this.NAME (a clicked cell)
_.vue_key_pressed  # ipyvue calls vue_NAME when the template calls this.NAME (a pressed key)

# --- overrides of llama-cpp-python's Llama, which llama_cpp calls by name -----------------------------
_.save_state  # local_llama.SharedLlama.save_state: llama_cpp's LlamaRAMCache saves with it; sessions keep one per agent
_.load_state  # local_llama.SharedLlama.load_state: llama_cpp restores a cached prefix with it
_._requires_eval  # llama_cpp's own flag on Llama: a restored state evaluates its last token again

# --- a v3 benchmark's freezing checks: read from ceiling files by bench/v3_checks.py (not scanned) ---
AGREEMENT  # ceiling_scores.AGREEMENT: the Kendall tau the local tier must reach (bench/v3_checks.py agreement)
scored_scenarios  # ceiling_scores.scored_scenarios: a held-out block's scored set (bench/v3_checks.py blocks)
_.enters  # ceiling_scores.Entry.enters: whether a scenario passes both entry conditions (bench/v3_checks.py entry)
aggregate_of  # ceiling_scores.aggregate_of: a row's aggregate on a block (bench/v3_checks.py blocks)
agreement  # ceiling_scores.agreement: tau per world between two tiers (bench/v3_checks.py agreement)
read_ceiling  # ceiling_scores.read_ceiling: a ceiling file with a one-line refusal (bench/v3_checks, score_coverage)
