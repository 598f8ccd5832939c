#pragma once

namespace sbx {

class TerminalEmulation;

// libvterm's state-layer callbacks writing into TerminalEmulation's screen model.
class TerminalStateGlue final {
public:
    static void install(TerminalEmulation *emulation);
};

} // namespace sbx
