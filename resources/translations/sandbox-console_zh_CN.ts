<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QMessageBox</name>
    <message>
        <source>&amp;Yes</source>
        <translation>是(&amp;Y)</translation>
    </message>
</context>
<context>
    <name>TerminalColorScheme</name>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>xterm</source>
        <translation>xterm</translation>
    </message>
</context>
<context>
    <name>sbx::AboutDialog</name>
    <message>
        <source>About Sandbox Console</source>
        <translation>关于沙箱控制台</translation>
    </message>
    <message>
        <source>Sandbox Console</source>
        <translation>沙箱控制台</translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <source>A desktop console for AIO agent sandboxes: terminals, files, logs, runs, code, MCP and what an agent is doing.</source>
        <translation>AIO 智能体沙箱的桌面控制台：终端、文件、日志、运行、代码、MCP，以及智能体正在做的事。</translation>
    </message>
    <message>
        <source>Libraries and their licences</source>
        <translation>所用库及其许可证</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Home page</source>
        <translation>主页</translation>
    </message>
    <message>
        <source>Built with:</source>
        <translation>构建所用：</translation>
    </message>
</context>
<context>
    <name>sbx::ApiJob</name>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
    <message>
        <source>%1 could not be read to its end while it was sent (it changed or went away)</source>
        <translation>%1 在发送过程中未能读取到末尾（文件已更改或已被移除）</translation>
    </message>
    <message numerus="yes">
        <source>%1: the connection was cut before the whole answer came (%n bytes of it)</source>
        <translation>
            <numerusform>%1：完整的答复到达之前连接就被切断了（只收到 %n 字节）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sbx::BashExecJob</name>
    <message>
        <source>The sandbox did not say which command it started.</source>
        <translation>沙箱没有告知它启动了哪条命令。</translation>
    </message>
</context>
<context>
    <name>sbx::BashJobs</name>
    <message>
        <source>&quot;%1&quot; is not NAME=value.</source>
        <translation>&quot;%1&quot; 不是 NAME=value 形式。</translation>
    </message>
    <message>
        <source>The command output had no data.</source>
        <translation>命令输出中没有数据。</translation>
    </message>
    <message>
        <source>A quote is not closed.</source>
        <translation>有引号未闭合。</translation>
    </message>
</context>
<context>
    <name>sbx::BashRun</name>
    <message>
        <source>The sandbox is not connected.</source>
        <translation>沙箱未连接。</translation>
    </message>
    <message>
        <source>This sandbox has no /v1/bash API, so commands cannot run here as runs. Use a terminal instead.</source>
        <translation>此沙箱没有 /v1/bash API，无法在这里以运行的方式执行命令。请改用终端。</translation>
    </message>
    <message>
        <source>The command did not start: %1</source>
        <translation>命令未能启动：%1</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>正在重新连接</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>timed out (exit %1)</source>
        <translation>超时（退出码 %1）</translation>
    </message>
    <message>
        <source>stopped (exit %1)</source>
        <translation>已停止（退出码 %1）</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>Sent %1; Stop again sends %2.</source>
        <translation>已发送 %1；再次停止将发送 %2。</translation>
    </message>
    <message>
        <source>Sent %1.</source>
        <translation>已发送 %1。</translation>
    </message>
    <message>
        <source>%1 was not sent: %2</source>
        <translation>%1 未发送：%2</translation>
    </message>
    <message>
        <source>The input was not sent: %1</source>
        <translation>输入未发送：%1</translation>
    </message>
    <message>
        <source>Connection back; the output goes on from where it was.</source>
        <translation>连接已恢复；输出从中断处继续。</translation>
    </message>
    <message>
        <source>The sandbox no longer has this command (it restarted, or the output expired): %1</source>
        <translation>沙箱中已没有这条命令（沙箱已重启，或输出已过期）：%1</translation>
    </message>
    <message>
        <source>Reading the output failed: %1</source>
        <translation>读取输出失败：%1</translation>
    </message>
    <message>
        <source>The sandbox stayed unreachable; the command may still run there.</source>
        <translation>沙箱一直无法访问；命令可能仍在其中运行。</translation>
    </message>
    <message>
        <source>Connection lost (%1); retrying every few seconds.</source>
        <translation>连接已断开（%1）；每隔几秒重试一次。</translation>
    </message>
</context>
<context>
    <name>sbx::CaptureController</name>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1失败：%2</translation>
    </message>
    <message>
        <source>Reading the capture state</source>
        <translation>读取采集状态</translation>
    </message>
    <message>
        <source>Listing the reports</source>
        <translation>列出报告</translation>
    </message>
    <message>
        <source>Capture started.</source>
        <translation>采集已开始。</translation>
    </message>
    <message>
        <source>Starting the capture</source>
        <translation>开始采集</translation>
    </message>
    <message>
        <source>No capture was running.</source>
        <translation>没有正在进行的采集。</translation>
    </message>
    <message>
        <source>Capture stopped; Export makes a report of it.</source>
        <translation>采集已停止；“导出”可为其生成报告。</translation>
    </message>
    <message>
        <source>Capture stopped before its first sample.</source>
        <translation>采集在首个样本之前就已停止。</translation>
    </message>
    <message>
        <source>Stopping the capture</source>
        <translation>停止采集</translation>
    </message>
    <message>
        <source>Exported report %1 (%2).</source>
        <translation>已导出报告 %1（%2）。</translation>
    </message>
    <message>
        <source>Exporting a report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Deleted report %1.</source>
        <translation>已删除报告 %1。</translation>
    </message>
    <message>
        <source>Deleting report %1</source>
        <translation>删除报告 %1</translation>
    </message>
    <message>
        <source>Saved the report to %1 (%2).</source>
        <translation>已将报告保存到 %1（%2）。</translation>
    </message>
    <message>
        <source>Downloading report %1</source>
        <translation>下载报告 %1</translation>
    </message>
</context>
<context>
    <name>sbx::CellWidget</name>
    <message>
        <source>Double-click or press Enter to edit</source>
        <translation>双击或按 Enter 编辑</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>*Empty markdown cell*</source>
        <translation>*空的 Markdown 单元格*</translation>
    </message>
    <message>
        <source>md</source>
        <translation>md</translation>
    </message>
    <message>
        <source>raw</source>
        <translation>raw</translation>
    </message>
    <message>
        <source>JS</source>
        <translation>JS</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running… %1</source>
        <translation>运行中… %1</translation>
    </message>
    <message>
        <source>Done in %1</source>
        <translation>完成，用时 %1</translation>
    </message>
    <message>
        <source>Failed after %1</source>
        <translation>失败，用时 %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cell code</source>
        <translation>单元格代码</translation>
    </message>
</context>
<context>
    <name>sbx::CodeInfoJob</name>
    <message>
        <source>The code info had no languages.</source>
        <translation>代码信息中没有语言。</translation>
    </message>
</context>
<context>
    <name>sbx::CodeJobs</name>
    <message>
        <source>The run&apos;s answer had no data.</source>
        <translation>运行的应答中没有数据。</translation>
    </message>
</context>
<context>
    <name>sbx::CodeTab</name>
    <message>
        <source>Interrupt the cell</source>
        <translation>中断单元格</translation>
    </message>
    <message>
        <source>Restart kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>From this computer…</source>
        <translation>从本机…</translation>
    </message>
    <message>
        <source>From the sandbox…</source>
        <translation>从沙箱…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save where the notebook came from (Ctrl+S)</source>
        <translation>保存到笔记本的来源位置 (Ctrl+S)</translation>
    </message>
    <message>
        <source>Save as</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>On this computer…</source>
        <translation>到本机…</translation>
    </message>
    <message>
        <source>In the sandbox…</source>
        <translation>到沙箱…</translation>
    </message>
    <message>
        <source>The kernel Python cells run in (GET /v1/jupyter/info)</source>
        <translation>运行 Python 单元格的内核 (GET /v1/jupyter/info)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A cell stops at this timeout (the sandbox allows 1 to 300 s)</source>
        <translation>单元格运行到此超时即停止（沙箱允许 1 到 300 秒）</translation>
    </message>
    <message>
        <source>Kernel:</source>
        <translation>内核：</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <source>+ Code</source>
        <translation>+ 代码</translation>
    </message>
    <message>
        <source>Add a code cell below the current one</source>
        <translation>在当前单元格下方添加代码单元格</translation>
    </message>
    <message>
        <source>+ Markdown</source>
        <translation>+ Markdown</translation>
    </message>
    <message>
        <source>Add a markdown cell below the current one</source>
        <translation>在当前单元格下方添加 Markdown 单元格</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>JavaScript</source>
        <translation>JavaScript</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>The current cell&apos;s kind: Python runs in the kernel, JavaScript in node (a fresh process each run: no state is kept between JavaScript cells)</source>
        <translation>当前单元格的类型：Python 在内核中运行，JavaScript 在 node 中运行（每次运行都是新进程：JavaScript 单元格之间不保留状态）</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move the current cell up</source>
        <translation>将当前单元格上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move the current cell down</source>
        <translation>将当前单元格下移</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the current cell</source>
        <translation>删除当前单元格</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the current cell (Ctrl+Enter; Shift+Enter runs and moves to the next)</source>
        <translation>运行当前单元格 (Ctrl+Enter；Shift+Enter 运行并移到下一个)</translation>
    </message>
    <message>
        <source>Run all</source>
        <translation>全部运行</translation>
    </message>
    <message>
        <source>Run every cell in order (Ctrl+Shift+Enter)</source>
        <translation>按顺序运行所有单元格 (Ctrl+Shift+Enter)</translation>
    </message>
    <message>
        <source>Interrupt</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Stop the running cell (Ctrl+.)</source>
        <translation>停止正在运行的单元格 (Ctrl+.)</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>Start a new kernel: variables are lost</source>
        <translation>启动新内核：变量将丢失</translation>
    </message>
    <message>
        <source>Clear outputs</source>
        <translation>清除输出</translation>
    </message>
    <message>
        <source>Clear every cell&apos;s outputs</source>
        <translation>清除所有单元格的输出</translation>
    </message>
    <message>
        <source>Restart the kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <source>A new kernel starts at the next run: the variables and imports of this one are lost.</source>
        <translation>下次运行时将启动新内核：当前内核的变量和导入都会丢失。</translation>
    </message>
    <message>
        <source>Open another notebook</source>
        <translation>打开其他笔记本</translation>
    </message>
    <message>
        <source>This notebook has changes that are not saved. Open another one and lose them?</source>
        <translation>此笔记本有未保存的更改。打开其他笔记本并丢弃这些更改吗？</translation>
    </message>
    <message>
        <source>Discard changes</source>
        <translation>放弃更改</translation>
    </message>
    <message>
        <source>Open a notebook</source>
        <translation>打开笔记本</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb);;All files (*)</source>
        <translation>Jupyter 笔记本 (*.ipynb);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a notebook in the sandbox</source>
        <translation>打开沙箱中的笔记本</translation>
    </message>
    <message>
        <source>Path of the .ipynb file in the sandbox:</source>
        <translation>沙箱中 .ipynb 文件的路径：</translation>
    </message>
    <message>
        <source>Save the notebook</source>
        <translation>保存笔记本</translation>
    </message>
    <message>
        <source>Save the notebook in the sandbox</source>
        <translation>将笔记本保存到沙箱</translation>
    </message>
    <message>
        <source>Path in the sandbox:</source>
        <translation>沙箱中的路径：</translation>
    </message>
    <message>
        <source>%1 (Python %2)</source>
        <translation>%1 (Python %2)</translation>
    </message>
    <message>
        <source>This sandbox has no Jupyter API (/v1/jupyter): Python cells cannot run here.</source>
        <translation>此沙箱没有 Jupyter API (/v1/jupyter)：无法在这里运行 Python 单元格。</translation>
    </message>
    <message>
        <source> JavaScript cells run through /v1/code.</source>
        <translation> JavaScript 单元格通过 /v1/code 运行。</translation>
    </message>
    <message>
        <source> It has no /v1/code either, so no cell can run.</source>
        <translation> 它也没有 /v1/code，因此任何单元格都无法运行。</translation>
    </message>
    <message>
        <source>The sandbox has no Jupyter kernel: %1</source>
        <translation>沙箱没有 Jupyter 内核：%1</translation>
    </message>
    <message>
        <source>Could not ask the sandbox for its kernels: %1</source>
        <translation>无法向沙箱查询其内核：%1</translation>
    </message>
    <message>
        <source>Change the kernel</source>
        <translation>更换内核</translation>
    </message>
    <message>
        <source>Python cells will run in %1, a new kernel: the variables of this one are lost.</source>
        <translation>Python 单元格将在新内核 %1 中运行：当前内核的变量会丢失。</translation>
    </message>
    <message>
        <source>Change kernel</source>
        <translation>更换内核</translation>
    </message>
    <message>
        <source> (modified)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>kernel: …</source>
        <translation>内核：…</translation>
    </message>
    <message>
        <source>kernel starting</source>
        <translation>内核启动中</translation>
    </message>
    <message>
        <source>no kernel yet</source>
        <translation>尚无内核</translation>
    </message>
    <message>
        <source>kernel busy</source>
        <translation>内核忙</translation>
    </message>
    <message>
        <source>kernel idle</source>
        <translation>内核空闲</translation>
    </message>
    <message>
        <source>A kernel starts at the first Python cell run</source>
        <translation>首次运行 Python 单元格时启动内核</translation>
    </message>
    <message>
        <source>Jupyter session %1</source>
        <translation>Jupyter 会话 %1</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Run every cell</source>
        <translation>运行所有单元格</translation>
    </message>
    <message>
        <source>Interrupt the kernel</source>
        <translation>中断内核</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
</context>
<context>
    <name>sbx::ConsoleOptions</name>
    <message>
        <source>Sandbox Console: browse, connect to and manage AIO agent sandboxes.
At launch it starts the local sandbox &quot;Local&quot; and connects to it.</source>
        <translation>沙箱控制台：浏览、连接和管理 AIO 智能体沙箱。
启动时会启动本地沙箱“本地”并连接到它。</translation>
    </message>
    <message>
        <source>Show this help and exit.</source>
        <translation>显示此帮助并退出。</translation>
    </message>
    <message>
        <source>Show the version and exit.</source>
        <translation>显示版本并退出。</translation>
    </message>
    <message>
        <source>Connect to the AIO sandbox at &lt;url&gt; and select it.</source>
        <translation>连接到位于 &lt;url&gt; 的 AIO 沙箱并选中它。</translation>
    </message>
    <message>
        <source>Read the --connect sandbox&apos;s API key from the environment variable &lt;var&gt;.</source>
        <translation>从环境变量 &lt;var&gt; 读取 --connect 沙箱的 API 密钥。</translation>
    </message>
    <message>
        <source>Do not start the local sandbox.</source>
        <translation>不启动本地沙箱。</translation>
    </message>
    <message>
        <source>%1
Try --help.
</source>
        <translation>%1
请尝试 --help。
</translation>
    </message>
    <message>
        <source>Unexpected argument: %1
Try --help.
</source>
        <translation>意外的参数：%1
请尝试 --help。
</translation>
    </message>
    <message>
        <source>--api-key-env needs --connect
</source>
        <translation>--api-key-env 需要与 --connect 一起使用
</translation>
    </message>
    <message>
        <source>The environment variable %1 is not set or empty
</source>
        <translation>环境变量 %1 未设置或为空
</translation>
    </message>
    <message>
        <source>the environment variable %1 (--api-key-env)</source>
        <translation>环境变量 %1 (--api-key-env)</translation>
    </message>
    <message>
        <source>Open the local &lt;file&gt; in the log window, following it.</source>
        <translation>在日志窗口中打开本地文件 &lt;file&gt; 并跟踪它。</translation>
    </message>
    <message>
        <source>Start clean: do not reopen the tabs, terminals and logs of the last session.</source>
        <translation>全新启动：不重新打开上次会话的标签页、终端和日志。</translation>
    </message>
</context>
<context>
    <name>sbx::ContextView</name>
    <message>
        <source>Operating system</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>主目录</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <source>Occupied ports</source>
        <translation>已占用端口</translation>
    </message>
    <message>
        <source>Extensions</source>
        <translation>扩展</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Aliases</source>
        <translation>别名</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>Read the context again (F5)</source>
        <translation>重新读取上下文 (F5)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Runtimes</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>Available tools</source>
        <translation>可用工具</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>Sandbox %1</source>
        <translation>沙箱 %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>更新于 %1</translation>
    </message>
    <message>
        <source>none (standard AIO)</source>
        <translation>无（标准 AIO）</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Context unavailable</source>
        <translation>上下文不可用</translation>
    </message>
    <message>
        <source>Could not read the sandbox&apos;s context: %1</source>
        <translation>无法读取沙箱的上下文：%1</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>%1 (version %2)</source>
        <comment>sandbox name, its server&apos;s version</comment>
        <translation>%1（版本 %2）</translation>
    </message>
    <message>
        <source>Refresh the overview</source>
        <translation>刷新概览</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
</context>
<context>
    <name>sbx::CreateShellSessionJob</name>
    <message>
        <source>%1: the reply has no session_id</source>
        <translation>%1：应答中没有 session_id</translation>
    </message>
</context>
<context>
    <name>sbx::CreateWatchJob</name>
    <message>
        <source>The sandbox did not say which watcher it made.</source>
        <translation>沙箱没有告知它创建了哪个监视器。</translation>
    </message>
</context>
<context>
    <name>sbx::Credentials</name>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>JWT</source>
        <translation>JWT</translation>
    </message>
    <message>
        <source>Console-signed JWT</source>
        <translation>控制台签名的 JWT</translation>
    </message>
</context>
<context>
    <name>sbx::DownloadJob</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Download of %1: the server resumed at the wrong offset</source>
        <translation>下载 %1：服务器从错误的偏移处续传</translation>
    </message>
    <message>
        <source>%1 changed during the download</source>
        <translation>%1 在下载期间发生了变化</translation>
    </message>
    <message>
        <source>Unexpected download reply</source>
        <translation>意外的下载应答</translation>
    </message>
    <message>
        <source>The download of %1 ended at %2 of %3 bytes</source>
        <translation>%1 的下载在 %2/%3 字节处结束</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::Endpoint</name>
    <message>
        <source>Enter the sandbox&apos;s address, for example http://localhost:8080</source>
        <translation>请输入沙箱的地址，例如 http://localhost:8080</translation>
    </message>
    <message>
        <source>Not a valid address: use http://host:port or https://host/path</source>
        <translation>地址无效：请使用 http://host:port 或 https://host/path</translation>
    </message>
    <message>
        <source>Use an http:// or https:// address (got %1://)</source>
        <translation>请使用 http:// 或 https:// 地址（收到的是 %1://）</translation>
    </message>
    <message>
        <source>Put the API key or token in the authentication fields, not in the address</source>
        <translation>请将 API 密钥或令牌填在认证字段中，而不是地址中</translation>
    </message>
</context>
<context>
    <name>sbx::EngineApi</name>
    <message>
        <source>No answer from the container engine</source>
        <translation>容器引擎没有应答</translation>
    </message>
    <message>
        <source>the container engine answered HTTP %1</source>
        <translation>容器引擎返回 HTTP %1</translation>
    </message>
    <message>
        <source>No container engine socket at %1</source>
        <translation>%1 处没有容器引擎套接字</translation>
    </message>
    <message>
        <source>The container engine at %1 refuses connections (is the service running, and may this user use it?)</source>
        <translation>%1 处的容器引擎拒绝连接（服务是否在运行？当前用户是否有权使用它？）</translation>
    </message>
    <message>
        <source>The container engine at %1 did not answer within %2 s</source>
        <translation>%1 处的容器引擎在 %2 秒内没有应答</translation>
    </message>
    <message>
        <source>The container engine at %1 closed the connection</source>
        <translation>%1 处的容器引擎关闭了连接</translation>
    </message>
    <message>
        <source>Talking to the container engine at %1 failed: %2</source>
        <translation>与 %1 处的容器引擎通信失败：%2</translation>
    </message>
    <message>
        <source>Cannot set up a connection (libcurl)</source>
        <translation>无法建立连接 (libcurl)</translation>
    </message>
    <message>
        <source>The container engine sent an oversized answer</source>
        <translation>容器引擎发送的应答过大</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>The container engine at %1 requires a client certificate signed by its CA (set the engine&apos;s certificate and key): %2</source>
        <translation>%1 处的容器引擎要求由其 CA 签发的客户端证书（请设置该引擎的证书和密钥）：%2</translation>
    </message>
    <message>
        <source>Nothing accepts connections at %1 (is the engine listening on that address and port, and does a firewall let it through?)</source>
        <translation>%1 处没有任何程序接受连接（引擎是否在该地址和端口上监听？防火墙是否放行？）</translation>
    </message>
    <message>
        <source>The host of %1 is not known (%2)</source>
        <translation>未知 %1 的主机（%2）</translation>
    </message>
    <message>
        <source>The certificate of the container engine at %1 failed verification: %2. Check that %3 is the CA that signed it and that it names this host.</source>
        <translation>%1 处容器引擎的证书验证失败：%2。请检查 %3 是否为签发它的 CA，以及证书是否包含该主机名。</translation>
    </message>
    <message>
        <source>the system&apos;s CA store</source>
        <translation>系统的 CA 存储</translation>
    </message>
    <message>
        <source>The CA file %1 for %2 cannot be read: %3</source>
        <translation>无法读取 %2 的 CA 文件 %1：%3</translation>
    </message>
    <message>
        <source>The client certificate %1 (key %2) for %3 cannot be used: %4</source>
        <translation>无法使用 %3 的客户端证书 %1（密钥 %2）：%4</translation>
    </message>
    <message>
        <source>The TLS handshake with the container engine at %1 failed: %2 (does it speak TLS there, and does it accept this client certificate?)</source>
        <translation>与 %1 处容器引擎的 TLS 握手失败：%2（那里是否使用 TLS？是否接受此客户端证书？）</translation>
    </message>
    <message>
        <source>An ssh:// engine is reached through its SSH link</source>
        <translation>ssh:// 引擎需通过其 SSH 连接访问</translation>
    </message>
    <message>
        <source>Plain TCP to %1 is refused: anyone on the way could drive the engine. Use TLS, or confirm plain TCP for this engine.</source>
        <translation>已拒绝到 %1 的明文 TCP：途经的任何人都能操控该引擎。请使用 TLS，或为此引擎确认使用明文 TCP。</translation>
    </message>
    <message>
        <source>The container engine is too old for the console, which needs Engine API 1.41 or later (Docker 20.10, podman 3.0 and newer): %1</source>
        <translation>容器引擎版本过旧，控制台需要 Engine API 1.41 或更高版本（Docker 20.10、podman 3.0 及更新版本）：%1</translation>
    </message>
    <message>
        <source>The SSH link to %1 does not carry the engine socket now</source>
        <translation>到 %1 的 SSH 连接目前没有转发引擎套接字</translation>
    </message>
</context>
<context>
    <name>sbx::EngineConnections</name>
    <message>
        <source>Give the engine a name other than &quot;default&quot;.</source>
        <translation>请为引擎起一个不是“default”的名称。</translation>
    </message>
    <message>
        <source>An engine named %1 is already in the list.</source>
        <translation>列表中已有名为 %1 的引擎。</translation>
    </message>
    <message>
        <source>%1 is plain TCP to another machine: anyone on the way could drive the engine. Give a CA for TLS, or confirm plain TCP.</source>
        <translation>%1 是到另一台机器的明文 TCP：途经的任何人都能操控该引擎。请提供用于 TLS 的 CA，或确认使用明文 TCP。</translation>
    </message>
</context>
<context>
    <name>sbx::EngineContainers</name>
    <message>
        <source>The container engine sent an unreadable container list</source>
        <translation>容器引擎发送的容器列表无法读取</translation>
    </message>
    <message>
        <source>The container engine sent unreadable container details</source>
        <translation>容器引擎发送的容器详情无法读取</translation>
    </message>
    <message>
        <source>Created, not started</source>
        <translation>已创建，未启动</translation>
    </message>
    <message>
        <source>The container engine sent unreadable container stats</source>
        <translation>容器引擎发送的容器统计无法读取</translation>
    </message>
    <message>
        <source>the container engine&apos;s stats of the container</source>
        <translation>容器引擎提供的容器统计</translation>
    </message>
</context>
<context>
    <name>sbx::EngineContexts</name>
    <message>
        <source>%1 is larger than 1 MiB</source>
        <translation>%1 大于 1 MiB</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2</source>
        <translation>%1 不是有效的 JSON：%2</translation>
    </message>
    <message>
        <source>%1 holds no JSON object</source>
        <translation>%1 中没有 JSON 对象</translation>
    </message>
    <message>
        <source>%1: a socket path must be absolute</source>
        <translation>%1：套接字路径必须是绝对路径</translation>
    </message>
    <message>
        <source>%1 is not an engine address the console can reach (unix://PATH, tcp://HOST:PORT or ssh://USER@HOST[:PORT])</source>
        <translation>%1 不是控制台可以连接的引擎地址（unix://路径、tcp://主机:端口 或 ssh://用户@主机[:端口]）</translation>
    </message>
    <message>
        <source>%1: a password in the address is refused; use an SSH key or agent</source>
        <translation>%1：地址中不允许包含密码；请使用 SSH 密钥或代理</translation>
    </message>
    <message>
        <source>%1: an engine address has no path</source>
        <translation>%1：引擎地址不能带路径</translation>
    </message>
    <message>
        <source>%1: a tcp:// address needs its port (2375 plain, 2376 TLS)</source>
        <translation>%1：tcp:// 地址需要端口（明文 2375，TLS 2376）</translation>
    </message>
    <message>
        <source>DOCKER_HOST: %1</source>
        <translation>DOCKER_HOST：%1</translation>
    </message>
    <message>
        <source>The local engine</source>
        <translation>本地引擎</translation>
    </message>
    <message>
        <source>DOCKER_HOST</source>
        <translation>DOCKER_HOST</translation>
    </message>
    <message>
        <source>%1: no usable context name</source>
        <translation>%1：没有可用的上下文名称</translation>
    </message>
    <message>
        <source>Context %1 has no Docker endpoint</source>
        <translation>上下文 %1 没有 Docker 端点</translation>
    </message>
    <message>
        <source>Context %1: %2</source>
        <translation>上下文 %1：%2</translation>
    </message>
    <message>
        <source>The current context %1 does not exist</source>
        <translation>当前上下文 %1 不存在</translation>
    </message>
</context>
<context>
    <name>sbx::EngineJob</name>
    <message>
        <source>The container engine was closed</source>
        <translation>容器引擎已关闭</translation>
    </message>
</context>
<context>
    <name>sbx::EngineListModel</name>
    <message>
        <source>Off: turn it on to list its sandboxes</source>
        <translation>已关闭：开启后将列出其沙箱</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Looking</source>
        <translation>查找中</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>连接中</translation>
    </message>
    <message>
        <source>Reachable</source>
        <translation>可访问</translation>
    </message>
    <message>
        <source>Host key unknown</source>
        <translation>主机密钥未知</translation>
    </message>
    <message>
        <source>Auth failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>%1 (Docker context)</source>
        <translation>%1（Docker 上下文）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>往返时间</translation>
    </message>
    <message>
        <source>%1 (current Docker context)</source>
        <translation>%1（当前 Docker 上下文）</translation>
    </message>
</context>
<context>
    <name>sbx::EngineLogStream</name>
    <message>
        <source>Stopped following the logs</source>
        <translation>已停止跟踪日志</translation>
    </message>
    <message>
        <source>Logs unavailable: %1</source>
        <translation>日志不可用：%1</translation>
    </message>
    <message>
        <source>The container stopped</source>
        <translation>容器已停止</translation>
    </message>
</context>
<context>
    <name>sbx::EngineSandboxes</name>
    <message>
        <source>Looking for a container engine at %1</source>
        <translation>正在 %1 处查找容器引擎</translation>
    </message>
    <message>
        <source>Container engine at %1</source>
        <translation>%1 处的容器引擎</translation>
    </message>
    <message>
        <source>%1 (signed-token auth; this console does not hold its key)</source>
        <translation>%1（签名令牌认证；此控制台不持有其密钥）</translation>
    </message>
    <message>
        <source>Choose an image for the sandbox</source>
        <translation>请为沙箱选择镜像</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be a container name: use letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;, starting with a letter or digit</source>
        <translation>&apos;%1&apos; 不能用作容器名称：请使用字母、数字、&apos;_&apos;、&apos;.&apos; 和 &apos;-&apos;，并以字母或数字开头</translation>
    </message>
    <message>
        <source>Cannot make a key pair for the sandbox</source>
        <translation>无法为沙箱生成密钥对</translation>
    </message>
    <message>
        <source>the container and its anonymous volumes are removed</source>
        <translation>容器及其匿名卷将被移除</translation>
    </message>
    <message>
        <source>&amp;Container: a Docker or podman engine</source>
        <translation>容器(&amp;C)：Docker 或 podman 引擎</translation>
    </message>
    <message>
        <source>Name the image to start.</source>
        <translation>请填写要启动的镜像。</translation>
    </message>
    <message>
        <source>A container name starts with a letter or digit and holds only letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;.</source>
        <translation>容器名称以字母或数字开头，只能包含字母、数字、&apos;_&apos;、&apos;.&apos; 和 &apos;-&apos;。</translation>
    </message>
    <message>
        <source>Cannot create the sandbox %1: %2</source>
        <translation>无法创建沙箱 %1：%2</translation>
    </message>
    <message>
        <source>The sandbox %1 was created but did not start: %2</source>
        <translation>沙箱 %1 已创建但未能启动：%2</translation>
    </message>
    <message>
        <source>Pulling %1</source>
        <translation>正在拉取 %1</translation>
    </message>
    <message>
        <source>Cannot pull %1: %2</source>
        <translation>无法拉取 %1：%2</translation>
    </message>
    <message>
        <source>No such container sandbox</source>
        <translation>没有这个容器沙箱</translation>
    </message>
    <message>
        <source>Cannot start the sandbox</source>
        <translation>无法启动沙箱</translation>
    </message>
    <message>
        <source>Cannot pause the sandbox</source>
        <translation>无法暂停沙箱</translation>
    </message>
    <message>
        <source>Cannot resume the sandbox</source>
        <translation>无法恢复沙箱</translation>
    </message>
    <message>
        <source>Cannot resume the sandbox to stop it</source>
        <translation>无法恢复沙箱以将其停止</translation>
    </message>
    <message>
        <source>Stopping: up to %1 s (%2)</source>
        <translation>正在停止：最多 %1 秒（%2）</translation>
    </message>
    <message>
        <source>Cannot stop the sandbox</source>
        <translation>无法停止沙箱</translation>
    </message>
    <message>
        <source>the default: the sandbox has no published port to ask for its shutdown hooks</source>
        <translation>默认值：沙箱没有发布端口，无法查询其关闭钩子</translation>
    </message>
    <message>
        <source>Reading shutdown hooks</source>
        <translation>正在读取关闭钩子</translation>
    </message>
    <message>
        <source>1 shutdown hook</source>
        <translation>1 个关闭钩子</translation>
    </message>
    <message>
        <source>%1 shutdown hooks</source>
        <translation>%1 个关闭钩子</translation>
    </message>
    <message>
        <source>%1 and a margin</source>
        <translation>%1 加余量</translation>
    </message>
    <message>
        <source>the default: the shutdown hooks could not be read: %1</source>
        <translation>默认值：无法读取关闭钩子：%1</translation>
    </message>
    <message>
        <source>the default: the sandbox did not list its shutdown hooks in time</source>
        <translation>默认值：沙箱没有及时列出其关闭钩子</translation>
    </message>
    <message>
        <source>Cannot delete the sandbox: %1</source>
        <translation>无法删除沙箱：%1</translation>
    </message>
    <message>
        <source>Containers</source>
        <translation>容器</translation>
    </message>
    <message>
        <source>The container is no longer listed.</source>
        <translation>该容器已不在列表中。</translation>
    </message>
    <message>
        <source>Containers on %1</source>
        <translation>%1 上的容器</translation>
    </message>
    <message>
        <source>Container on %1 (%2)</source>
        <translation>%1 上的容器（%2）</translation>
    </message>
    <message>
        <source>Publish on an IP address of the engine host, or 0.0.0.0 for all of them.</source>
        <translation>请发布在引擎主机的某个 IP 地址上，或用 0.0.0.0 表示全部地址。</translation>
    </message>
    <message>
        <source>Connecting to %1 over SSH</source>
        <translation>正在通过 SSH 连接 %1</translation>
    </message>
</context>
<context>
    <name>sbx::EnginesDialog</name>
    <message>
        <source>Add a container engine</source>
        <translation>添加容器引擎</translation>
    </message>
    <message>
        <source>ca.pem: the CA that signed the engine&apos;s certificate</source>
        <translation>ca.pem：签发引擎证书的 CA</translation>
    </message>
    <message>
        <source>cert.pem: this console&apos;s client certificate</source>
        <translation>cert.pem：本控制台的客户端证书</translation>
    </message>
    <message>
        <source>key.pem: its key</source>
        <translation>key.pem：其密钥</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <source>SSH &amp;options:</source>
        <translation>SSH 选项(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;CA file:</source>
        <translation>CA 文件(&amp;C)：</translation>
    </message>
    <message>
        <source>C&amp;ertificate:</source>
        <translation>证书(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Key:</source>
        <translation>密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>Allow plain TCP to another host (anyone on the way could drive the engine)</source>
        <translation>允许到其他主机的明文 TCP（途经的任何人都能操控该引擎）</translation>
    </message>
    <message>
        <source>Over SSH the console uses your keys, agent and known_hosts and never asks for or keeps a password.</source>
        <translation>通过 SSH 时，控制台使用你的密钥、代理和 known_hosts，从不询问或保存密码。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Trust host key…</source>
        <translation>信任主机密钥(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Connect again</source>
        <translation>重新连接(&amp;C)</translation>
    </message>
    <message>
        <source>Container engines</source>
        <translation>容器引擎</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <source>Re&amp;read contexts</source>
        <translation>重新读取上下文(&amp;R)</translation>
    </message>
    <message>
        <source>Read the Docker CLI&apos;s contexts again (~/.docker/contexts)</source>
        <translation>重新读取 Docker CLI 的上下文（~/.docker/contexts）</translation>
    </message>
    <message>
        <source>Sandboxes of every engine that is on appear in the list, labelled by engine.</source>
        <translation>每个已开启引擎的沙箱都会出现在列表中，并标明所属引擎。</translation>
    </message>
    <message>
        <source>Remove engine</source>
        <translation>移除引擎</translation>
    </message>
    <message>
        <source>Remove %1 from the list? Its sandboxes keep running there.</source>
        <translation>从列表中移除 %1？其沙箱会继续在那里运行。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>%1 is not in your known_hosts yet. It presents:

%2

Compare the fingerprint with the one the host&apos;s owner gives you (ssh-keygen -lf on the host&apos;s key). Trust it and add it to known_hosts?</source>
        <translation>%1 尚不在你的 known_hosts 中。它出示的是：

%2

请将该指纹与主机所有者提供的指纹（在主机密钥上运行 ssh-keygen -lf）比对。要信任它并加入 known_hosts 吗？</translation>
    </message>
    <message>
        <source>Unknown host key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
</context>
<context>
    <name>sbx::Envelope</name>
    <message>
        <source>%1: the server replied with invalid JSON</source>
        <translation>%1：服务器返回了无效的 JSON</translation>
    </message>
    <message>
        <source>%1: the server replied with JSON that is not an object</source>
        <translation>%1：服务器返回的 JSON 不是对象</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 失败</translation>
    </message>
</context>
<context>
    <name>sbx::ErrorRow</name>
    <message>
        <source>Retry with sudo</source>
        <translation>使用 sudo 重试</translation>
    </message>
    <message>
        <source>Run the same operation again as root through the sandbox&apos;s sudo</source>
        <translation>通过沙箱的 sudo 以 root 身份再次执行同一操作</translation>
    </message>
</context>
<context>
    <name>sbx::FileEventModel</name>
    <message>
        <source>%1 (was %2)</source>
        <translation>%1（原为 %2）</translation>
    </message>
    <message>
        <source>events lost</source>
        <translation>事件丢失</translation>
    </message>
    <message>
        <source>Too many changes at once: the tree was listed again</source>
        <translation>同时发生的更改过多：已重新列出目录树</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
</context>
<context>
    <name>sbx::FileEventsView</name>
    <message>
        <source>All changes</source>
        <translation>所有更改</translation>
    </message>
    <message>
        <source>Filter by path</source>
        <translation>按路径筛选</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Forget the events listed so far</source>
        <translation>清除目前列出的事件</translation>
    </message>
    <message>
        <source>Double-click reveals the file in the tree</source>
        <translation>双击可在目录树中显示该文件</translation>
    </message>
    <message>
        <source>&lt;b&gt;Events&lt;/b&gt;</source>
        <translation>&lt;b&gt;事件&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Reveal in the tree</source>
        <translation>在目录树中显示</translation>
    </message>
    <message>
        <source>Follow as log</source>
        <translation>作为日志跟踪</translation>
    </message>
    <message>
        <source>Path filter</source>
        <translation>路径筛选</translation>
    </message>
    <message>
        <source>File events</source>
        <translation>文件事件</translation>
    </message>
</context>
<context>
    <name>sbx::FileViewer</name>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Allow changes; Save writes them to the sandbox</source>
        <translation>允许修改；“保存”会将其写入沙箱</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Discard your changes and reload %1?</source>
        <translation>放弃你的更改并重新加载 %1 吗？</translation>
    </message>
    <message>
        <source>%1 — Sandbox Console</source>
        <translation>%1 — 沙箱控制台</translation>
    </message>
    <message>
        <source>%1 (read-only) — Sandbox Console</source>
        <translation>%1（只读）— 沙箱控制台</translation>
    </message>
    <message>
        <source>%1 is not all UTF-8 text: editing it here would change bytes you did not touch. Use Download… to edit it locally.</source>
        <translation>%1 并非全是 UTF-8 文本：在这里编辑会改动你没有碰过的字节。请使用“下载…”在本地编辑。</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 changed on the server since you opened it.</source>
        <translation>自你打开 %1 以来，它已在服务器上被修改。</translation>
    </message>
    <message>
        <source>Changed on the server</source>
        <translation>已在服务器上被修改</translation>
    </message>
    <message>
        <source>%1 Overwrite it with your version?</source>
        <translation>%1 要用你的版本覆盖它吗？</translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Discard mine and reload</source>
        <translation>放弃我的更改并重新加载</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save your changes to %1 before closing?</source>
        <translation>关闭前保存对 %1 的更改吗？</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
</context>
<context>
    <name>sbx::FileWatch</name>
    <message>
        <source>The file watch answer had no events.</source>
        <translation>文件监视的应答中没有事件。</translation>
    </message>
    <message>
        <source>This sandbox has no file watch; refresh to see changes.</source>
        <translation>此沙箱不支持文件监视；请刷新以查看更改。</translation>
    </message>
    <message>
        <source>The sandbox&apos;s file watchers are all in use; refresh to see changes.</source>
        <translation>沙箱的文件监视器已全部占用；请刷新以查看更改。</translation>
    </message>
    <message>
        <source>Not watching this folder: %1</source>
        <translation>未监视此文件夹：%1</translation>
    </message>
    <message>
        <source>The sandbox does not answer</source>
        <translation>沙箱没有应答</translation>
    </message>
</context>
<context>
    <name>sbx::FilesTab</name>
    <message>
        <source>/path/in/the/sandbox</source>
        <translation>/沙箱中的路径</translation>
    </message>
    <message>
        <source>Type a folder and press Enter (Ctrl+L)</source>
        <translation>输入文件夹并按 Enter (Ctrl+L)</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>主目录</translation>
    </message>
    <message>
        <source>The sandbox user&apos;s home folder</source>
        <translation>沙箱用户的主目录</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>The sandbox&apos;s workspace folder</source>
        <translation>沙箱的工作区文件夹</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上一级</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>List this folder again (F5)</source>
        <translation>重新列出此文件夹 (F5)</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>F7</source>
        <translation>F7</translation>
    </message>
    <message>
        <source>Upload…</source>
        <translation>上传…</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>F2</source>
        <translation>F2</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete key; asks first</source>
        <translation>Delete 键；会先确认</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Upload here…</source>
        <translation>上传到此处…</translation>
    </message>
    <message>
        <source>New folder…</source>
        <translation>新建文件夹…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Delete these from the sandbox? This cannot be undone.

</source>
        <translation>从沙箱中删除以下项目吗？此操作无法撤销。

</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Upload files</source>
        <translation>上传文件</translation>
    </message>
    <message>
        <source>Name already taken</source>
        <translation>名称已被占用</translation>
    </message>
    <message>
        <source>“%1” already exists there.</source>
        <translation>那里已存在“%1”。</translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Keep both</source>
        <translation>保留两者</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Download to</source>
        <translation>下载到</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Open as log (follow)</source>
        <translation>作为日志打开（跟踪）</translation>
    </message>
    <message>
        <source>not watching yet</source>
        <translation>尚未监视</translation>
    </message>
    <message>
        <source>starting the watch…</source>
        <translation>正在启动监视…</translation>
    </message>
    <message>
        <source>live: changes appear without a refresh</source>
        <translation>实时：无需刷新即可看到更改</translation>
    </message>
    <message>
        <source>reconnecting (%1)</source>
        <translation>正在重新连接（%1）</translation>
    </message>
    <message>
        <source>Refresh the folder</source>
        <translation>刷新文件夹</translation>
    </message>
    <message>
        <source>Go to a path</source>
        <translation>转到路径</translation>
    </message>
    <message>
        <source>Delete the selected files</source>
        <translation>删除所选文件</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Files in the sandbox</source>
        <translation>沙箱中的文件</translation>
    </message>
</context>
<context>
    <name>sbx::GetContextJob</name>
    <message>
        <source>%1: the reply has no version or detail; the address does not look like an AIO sandbox</source>
        <translation>%1：应答中没有 version 或 detail；该地址看起来不是 AIO 沙箱</translation>
    </message>
</context>
<context>
    <name>sbx::GetLlmsTxtJob</name>
    <message>
        <source>GET /llms.txt returned a web page, not the agent manual</source>
        <translation>GET /llms.txt 返回的是网页，而不是智能体手册</translation>
    </message>
    <message>
        <source>GET /llms.txt is not UTF-8 text</source>
        <translation>GET /llms.txt 返回的不是 UTF-8 文本</translation>
    </message>
</context>
<context>
    <name>sbx::HookEditorDialog</name>
    <message>
        <source>Add shutdown hook</source>
        <translation>添加关闭钩子</translation>
    </message>
    <message>
        <source>Edit shutdown hook %1</source>
        <translation>编辑关闭钩子 %1</translation>
    </message>
    <message>
        <source>Shutdown hook %1</source>
        <translation>关闭钩子 %1</translation>
    </message>
    <message>
        <source>e.g. flush-logs</source>
        <translation>例如 flush-logs</translation>
    </message>
    <message>
        <source>A shell command, run when the sandbox stops</source>
        <translation>沙箱停止时运行的 shell 命令</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>The hook is stopped after this long</source>
        <translation>钩子运行这么久后将被停止</translation>
    </message>
    <message>
        <source>Lower runs earlier; hooks of equal priority run at the same time</source>
        <translation>数值越小越先运行；优先级相同的钩子同时运行</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Command</source>
        <translation>命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Timeout</source>
        <translation>超时(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Priority</source>
        <translation>优先级(&amp;P)</translation>
    </message>
    <message>
        <source>The name identifies the hook; to rename it, add a new hook and delete this one</source>
        <translation>名称用于标识钩子；如需改名，请添加新钩子并删除此钩子</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>A hook named %1 exists already: edit that one, or choose another name</source>
        <translation>已存在名为 %1 的钩子：请编辑那个钩子，或换一个名称</translation>
    </message>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>The hook was not saved: %1</source>
        <translation>钩子未保存：%1</translation>
    </message>
    <message>
        <source>Save the hook</source>
        <translation>保存钩子</translation>
    </message>
</context>
<context>
    <name>sbx::HookModel</name>
    <message>
        <source>Priority %1 · 1 hook</source>
        <translation>优先级 %1 · 1 个钩子</translation>
    </message>
    <message>
        <source>Priority %1 · %2 hooks run together</source>
        <translation>优先级 %1 · %2 个钩子同时运行</translation>
    </message>
    <message>
        <source>Lanes run one after another, lowest priority first; the hooks in one lane run at the same time.</source>
        <translation>各批次依次运行，优先级数值最小的先运行；同一批次中的钩子同时运行。</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>env (read-only)</source>
        <translation>环境变量（只读）</translation>
    </message>
    <message>
        <source>api</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>sbx::HookTrialRun</name>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
    <message>
        <source>Could not open a shell session to run it in: </source>
        <translation>无法打开用于运行它的 shell 会话：</translation>
    </message>
    <message>
        <source>Running the command failed: </source>
        <translation>运行命令失败：</translation>
    </message>
    <message>
        <source>The shell session %1 it ran in could not be removed: %2</source>
        <translation>无法移除运行它的 shell 会话 %1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::HooksTab</name>
    <message>
        <source>Could not run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>%1 finished with exit code %2</source>
        <translation>%1 已结束，退出码 %2</translation>
    </message>
    <message>
        <source>%1 was stopped after its timeout of %2 s</source>
        <translation>%1 达到 %2 秒超时后被停止</translation>
    </message>
    <message>
        <source>%1 ended as %2%3</source>
        <translation>%1 结束，状态为 %2%3</translation>
    </message>
    <message>
        <source>Trial run</source>
        <translation>试运行</translation>
    </message>
    <message>
        <source>This sandbox has no hooks API: it does not answer GET /v1/sandbox/hooks, so its shutdown hooks cannot be seen or changed from here.</source>
        <translation>此沙箱没有钩子 API：它不响应 GET /v1/sandbox/hooks，因此无法在这里查看或更改其关闭钩子。</translation>
    </message>
    <message>
        <source>No shutdown hooks yet. Add one (Insert) to run a command when the sandbox stops.</source>
        <translation>还没有关闭钩子。添加一个 (Insert)，即可在沙箱停止时运行命令。</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add a shutdown hook (Insert)</source>
        <translation>添加关闭钩子 (Insert)</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Edit the selected hook (Enter)</source>
        <translation>编辑所选钩子 (Enter)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>立即运行</translation>
    </message>
    <message>
        <source>Run the selected hook&apos;s command once now, in a shell session of its own</source>
        <translation>立即在独立的 shell 会话中运行一次所选钩子的命令</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>List the hooks again (F5)</source>
        <translation>重新列出钩子 (F5)</translation>
    </message>
    <message>
        <source>Could not list the shutdown hooks: %1</source>
        <translation>无法列出关闭钩子：%1</translation>
    </message>
    <message>
        <source>Shutdown hooks run when the sandbox stops: lanes one after another, lowest priority first; the hooks of one lane at the same time, each stopped after its timeout.</source>
        <translation>关闭钩子在沙箱停止时运行：各批次依次运行，优先级数值最小的先运行；同一批次的钩子同时运行，每个钩子在其超时后被停止。</translation>
    </message>
    <message>
        <source>%1 This sandbox does not say that hooks added here survive its restart.</source>
        <translation>%1 此沙箱未声明在这里添加的钩子在其重启后仍然保留。</translation>
    </message>
    <message>
        <source>View…</source>
        <translation>查看…</translation>
    </message>
    <message>
        <source>Delete the selected hook (Delete)</source>
        <translation>删除所选钩子 (Delete)</translation>
    </message>
    <message>
        <source>Delete hook</source>
        <translation>删除钩子</translation>
    </message>
    <message>
        <source>Delete the shutdown hook %1? It will no longer run when the sandbox stops.</source>
        <translation>删除关闭钩子 %1 吗？沙箱停止时将不再运行它。</translation>
    </message>
    <message>
        <source>Could not delete hook %1: %2</source>
        <translation>无法删除钩子 %1：%2</translation>
    </message>
    <message>
        <source>Run hook now</source>
        <translation>立即运行钩子</translation>
    </message>
    <message>
        <source>Run %1 now? This is not a rehearsal: its command runs in the sandbox for real, with real effects, in a new shell session stopped after %2 s.

%3</source>
        <translation>立即运行 %1 吗？这不是演练：它的命令会在沙箱中真实运行并产生实际效果，在新的 shell 会话中运行，%2 秒后停止。

%3</translation>
    </message>
    <message>
        <source>Trial run of %1</source>
        <translation>试运行 %1</translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <source>Hooks</source>
        <translation>钩子</translation>
    </message>
    <message>
        <source>Add a hook</source>
        <translation>添加钩子</translation>
    </message>
    <message>
        <source>Delete the selected hook</source>
        <translation>删除所选钩子</translation>
    </message>
    <message>
        <source>Reload the hooks</source>
        <translation>重新加载钩子</translation>
    </message>
</context>
<context>
    <name>sbx::Job</name>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>sbx::JsonSchema</name>
    <message>
        <source>arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>is not allowed here</source>
        <translation>此处不允许</translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation>必须是%1</translation>
    </message>
    <message>
        <source> or </source>
        <translation>或</translation>
    </message>
    <message>
        <source>must be one of: %1</source>
        <translation>必须是以下之一：%1</translation>
    </message>
    <message>
        <source>must be more than %1</source>
        <translation>必须大于 %1</translation>
    </message>
    <message>
        <source>must be at least %1</source>
        <translation>必须至少为 %1</translation>
    </message>
    <message>
        <source>must be less than %1</source>
        <translation>必须小于 %1</translation>
    </message>
    <message>
        <source>must be at most %1</source>
        <translation>必须至多为 %1</translation>
    </message>
    <message>
        <source>must be a multiple of %1</source>
        <translation>必须是 %1 的倍数</translation>
    </message>
    <message numerus="yes">
        <source>must be at least %n character(s) long</source>
        <translation>
            <numerusform>长度必须至少为 %n 个字符</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>must be at most %n character(s) long</source>
        <translation>
            <numerusform>长度必须至多为 %n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>must match the pattern %1</source>
        <translation>必须匹配模式 %1</translation>
    </message>
    <message numerus="yes">
        <source>needs at least %n item(s)</source>
        <translation>
            <numerusform>至少需要 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>may have at most %n item(s)</source>
        <translation>
            <numerusform>最多只能有 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>repeats an earlier item</source>
        <translation>与前面的某项重复</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>is not a parameter here (the schema does not list it)</source>
        <translation>不是此处的参数（架构中未列出）</translation>
    </message>
    <message>
        <source>does not match any of the forms the schema allows</source>
        <translation>与架构允许的任何形式都不匹配</translation>
    </message>
    <message>
        <source>matches more than one of the forms the schema allows</source>
        <translation>与架构允许的多种形式同时匹配</translation>
    </message>
    <message>
        <source>must not match the form the schema excludes</source>
        <translation>不得匹配架构排除的形式</translation>
    </message>
</context>
<context>
    <name>sbx::JsonTreeModel</name>
    <message numerus="yes">
        <source>list of %n</source>
        <translation>
            <numerusform>%n 项的列表</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>object with %n field(s)</source>
        <translation>
            <numerusform>含 %n 个字段的对象</numerusform>
        </translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>sbx::JupyterCreateSessionJob</name>
    <message>
        <source>The sandbox did not say which session it made.</source>
        <translation>沙箱没有告知它创建了哪个会话。</translation>
    </message>
</context>
<context>
    <name>sbx::JupyterInfoJob</name>
    <message>
        <source>The Jupyter info had no data.</source>
        <translation>Jupyter 信息中没有数据。</translation>
    </message>
</context>
<context>
    <name>sbx::JupyterJobs</name>
    <message>
        <source>The kernel&apos;s answer had no data.</source>
        <translation>内核的应答中没有数据。</translation>
    </message>
</context>
<context>
    <name>sbx::JupyterSessionsJob</name>
    <message>
        <source>The session list was not a map.</source>
        <translation>会话列表不是映射。</translation>
    </message>
</context>
<context>
    <name>sbx::LazyLibrary</name>
    <message>
        <source>%1 lacks %2</source>
        <translation>%1 缺少 %2</translation>
    </message>
</context>
<context>
    <name>sbx::ListBashSessionsJob</name>
    <message>
        <source>The session list was not a list.</source>
        <translation>会话列表不是列表。</translation>
    </message>
</context>
<context>
    <name>sbx::ListFilesJob</name>
    <message>
        <source>%1: files is not a list</source>
        <translation>%1：files 不是列表</translation>
    </message>
</context>
<context>
    <name>sbx::ListShellSessionsJob</name>
    <message>
        <source>%1: the reply has no sessions map</source>
        <translation>%1：应答中没有 sessions 映射</translation>
    </message>
</context>
<context>
    <name>sbx::LlmsTxtView</name>
    <message>
        <source>Plain text</source>
        <translation>纯文本</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Loading /llms.txt…</source>
        <translation>正在加载 /llms.txt…</translation>
    </message>
    <message>
        <source>Find in llms.txt (Ctrl+F)</source>
        <translation>在 llms.txt 中查找 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <source>Show the file exactly as the sandbox serves it</source>
        <translation>按沙箱提供的原样显示文件</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配项</translation>
    </message>
    <message>
        <source>Could not read /llms.txt: </source>
        <translation>无法读取 /llms.txt：</translation>
    </message>
    <message>
        <source>llms.txt</source>
        <translation>llms.txt</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>查找下一个</translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation>查找上一个</translation>
    </message>
    <message>
        <source>Reload llms.txt</source>
        <translation>重新加载 llms.txt</translation>
    </message>
    <message>
        <source>Find in llms.txt</source>
        <translation>在 llms.txt 中查找</translation>
    </message>
</context>
<context>
    <name>sbx::LocalLogSource</name>
    <message>
        <source>The sandbox was deleted</source>
        <translation>沙箱已被删除</translation>
    </message>
</context>
<context>
    <name>sbx::LocalSandboxes</name>
    <message>
        <source>Local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>Cannot generate a JWT key pair</source>
        <translation>无法生成 JWT 密钥对</translation>
    </message>
    <message>
        <source>Cannot create the workspace folder %1</source>
        <translation>无法创建工作区文件夹 %1</translation>
    </message>
    <message>
        <source>sandbox-server not found at %1</source>
        <translation>在 %1 处找不到 sandbox-server</translation>
    </message>
    <message>
        <source>Cannot start %1</source>
        <translation>无法启动 %1</translation>
    </message>
    <message>
        <source>sandbox-server printed an unexpected first line</source>
        <translation>sandbox-server 输出的第一行不符合预期</translation>
    </message>
    <message>
        <source>killed: shutdown hooks did not finish within %1 s</source>
        <translation>已强制结束：关闭钩子未在 %1 秒内完成</translation>
    </message>
    <message>
        <source>sandbox-server was killed or crashed</source>
        <translation>sandbox-server 被强制结束或已崩溃</translation>
    </message>
    <message>
        <source>sandbox-server exited with code %1</source>
        <translation>sandbox-server 已退出，退出码 %1</translation>
    </message>
    <message>
        <source>Cannot pause the sandbox&apos;s processes</source>
        <translation>无法暂停沙箱的进程</translation>
    </message>
    <message>
        <source>its workspace folder is deleted: %1</source>
        <translation>其工作区文件夹将被删除：%1</translation>
    </message>
    <message>
        <source>its folder is kept: %1</source>
        <translation>其文件夹将被保留：%1</translation>
    </message>
    <message>
        <source>&amp;Local: sandbox-server on this machine</source>
        <translation>本地(&amp;L)：本机上的 sandbox-server</translation>
    </message>
    <message>
        <source>Choose an existing folder, or let the console create one.</source>
        <translation>请选择一个已有文件夹，或让控制台新建一个。</translation>
    </message>
    <message>
        <source>Cannot create the state folder %1</source>
        <translation>无法创建状态文件夹 %1</translation>
    </message>
</context>
<context>
    <name>sbx::LogData</name>
    <message>
        <source>Cannot keep the log in %1: %2</source>
        <translation>无法将日志保存在 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>The log could not be kept on disk: %1</source>
        <translation>无法将日志保存到磁盘：%1</translation>
    </message>
    <message>
        <source>Reading the log failed: %1</source>
        <translation>读取日志失败：%1</translation>
    </message>
    <message>
        <source>The file was replaced; showing the new one from its start</source>
        <translation>文件已被替换；从头显示新文件</translation>
    </message>
    <message>
        <source>The file was truncated; showing it again from its start</source>
        <translation>文件已被截断；从头重新显示</translation>
    </message>
</context>
<context>
    <name>sbx::LogExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Writing %1 failed: %2</source>
        <translation>写入 %1 失败：%2</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>sbx::LogLinesView</name>
    <message>
        <source>… (%1 more bytes; copy takes the whole line)</source>
        <translation>…（还有 %1 字节；复制时会复制整行）</translation>
    </message>
    <message>
        <source>No line matches</source>
        <translation>没有匹配的行</translation>
    </message>
    <message>
        <source>No lines yet</source>
        <translation>还没有内容</translation>
    </message>
</context>
<context>
    <name>sbx::LogOverview</name>
    <message>
        <source>Search matches (yellow) and errors (red) in the whole log; click to go there</source>
        <translation>整个日志中的搜索匹配（黄色）和错误（红色）；点击可跳转</translation>
    </message>
</context>
<context>
    <name>sbx::LogSearch</name>
    <message>
        <source>%1 (at character %2)</source>
        <translation>%1（位于第 %2 个字符）</translation>
    </message>
</context>
<context>
    <name>sbx::LogView</name>
    <message>
        <source>Keep the newest lines in view (End)</source>
        <translation>保持显示最新的行 (End)</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>The sandbox is gone</source>
        <translation>沙箱已不存在</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Re&amp;gex</source>
        <translation>正则(&amp;G)</translation>
    </message>
    <message>
        <source>The search is a regular expression</source>
        <translation>搜索内容为正则表达式</translation>
    </message>
    <message>
        <source>&amp;Case</source>
        <translation>大小写(&amp;C)</translation>
    </message>
    <message>
        <source>Upper and lower case differ</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>The filter is a regular expression</source>
        <translation>筛选条件为正则表达式</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>大小写</translation>
    </message>
    <message>
        <source>&amp;Invert</source>
        <translation>反选(&amp;I)</translation>
    </message>
    <message>
        <source>Show the lines that do not match</source>
        <translation>显示不匹配的行</translation>
    </message>
    <message>
        <source>Search the whole log (F3 next, Shift+F3 previous)</source>
        <translation>搜索整个日志（F3 下一个，Shift+F3 上一个）</translation>
    </message>
    <message>
        <source>Filter: show only the lines that match</source>
        <translation>筛选：只显示匹配的行</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配项 (Shift+F3)</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation>下一个匹配项 (F3)</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>筛选(&amp;F)</translation>
    </message>
    <message>
        <source>A pane with only the lines that match a filter (Ctrl+Shift+F)</source>
        <translation>只显示与筛选条件匹配的行的窗格 (Ctrl+Shift+F)</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟踪</translation>
    </message>
    <message>
        <source>Any level</source>
        <translation>任意级别</translation>
    </message>
    <message>
        <source>Debug and worse</source>
        <translation>调试及以上</translation>
    </message>
    <message>
        <source>Info and worse</source>
        <translation>信息及以上</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>警告和错误</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <source>Keep only lines of this level or worse</source>
        <translation>只保留此级别及更严重级别的行</translation>
    </message>
    <message>
        <source>No error in that direction</source>
        <translation>该方向上没有错误</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>Go to line</source>
        <translation>转到行</translation>
    </message>
    <message>
        <source>Line (1 to %L1):</source>
        <translation>行号（1 到 %L1）：</translation>
    </message>
    <message>
        <source>Save the filtered lines</source>
        <translation>保存筛选出的行</translation>
    </message>
    <message>
        <source>Save the log</source>
        <translation>保存日志</translation>
    </message>
    <message>
        <source>Saving to %1…</source>
        <translation>正在保存到 %1…</translation>
    </message>
    <message>
        <source>%L1 lines</source>
        <translation>%L1 行</translation>
    </message>
    <message>
        <source>reading %1%</source>
        <translation>正在读取 %1%</translation>
    </message>
    <message>
        <source>%L1 of %L2</source>
        <translation>%L1 / %L2</translation>
    </message>
    <message>
        <source>%L1 matches</source>
        <translation>%L1 个匹配项</translation>
    </message>
    <message>
        <source>filter: %L1 lines</source>
        <translation>筛选：%L1 行</translation>
    </message>
    <message>
        <source>%L1 new lines below (End follows)</source>
        <translation>下方有 %L1 行新内容（按 End 跟踪）</translation>
    </message>
    <message>
        <source>Reconnected</source>
        <translation>已重新连接</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>相对时间</translation>
    </message>
    <message>
        <source>Beside each line, its time since the current line&apos;s (Ctrl+T goes to a time)</source>
        <translation>在每行旁显示其与当前行的时间差（Ctrl+T 可跳转到某一时间）</translation>
    </message>
    <message>
        <source>The current line, when it is JSON</source>
        <translation>当前行（如果是 JSON）</translation>
    </message>
    <message>
        <source>Go to time</source>
        <translation>转到时间</translation>
    </message>
    <message>
        <source>First line at or after (2026-12-01 15:52:14, or an RFC 3339 time):</source>
        <translation>不早于此时间的第一行（2026-12-01 15:52:14 或 RFC 3339 时间）：</translation>
    </message>
    <message>
        <source>Not a time: %1</source>
        <translation>不是有效的时间：%1</translation>
    </message>
    <message>
        <source>Every line is earlier than %1</source>
        <translation>所有行都早于 %1</translation>
    </message>
    <message>
        <source> (searching, Esc stops)</source>
        <translation>（正在搜索，按 Esc 停止）</translation>
    </message>
    <message>
        <source> (stopped at line %L1)</source>
        <translation>（已停在第 %L1 行）</translation>
    </message>
    <message>
        <source>Go to a time</source>
        <translation>转到时间</translation>
    </message>
    <message>
        <source>Stop the search, or leave the find field</source>
        <translation>停止搜索，或离开查找框</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>查找下一个</translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation>查找上一个</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Show or hide the filter pane</source>
        <translation>显示或隐藏筛选窗格</translation>
    </message>
    <message>
        <source>Go to a line</source>
        <translation>转到行</translation>
    </message>
    <message>
        <source>Next error</source>
        <translation>下一个错误</translation>
    </message>
    <message>
        <source>Previous error</source>
        <translation>上一个错误</translation>
    </message>
    <message>
        <source>Set or clear a bookmark</source>
        <translation>设置或清除书签</translation>
    </message>
    <message>
        <source>Next bookmark</source>
        <translation>下一个书签</translation>
    </message>
    <message>
        <source>Previous bookmark</source>
        <translation>上一个书签</translation>
    </message>
    <message>
        <source>Save the lines</source>
        <translation>保存这些行</translation>
    </message>
    <message>
        <source>Copy the selected lines</source>
        <translation>复制所选行</translation>
    </message>
    <message>
        <source>Copy the selected lines with line numbers</source>
        <translation>复制所选行（带行号）</translation>
    </message>
    <message>
        <source>Search the log</source>
        <translation>搜索日志</translation>
    </message>
    <message>
        <source>Filter the log</source>
        <translation>筛选日志</translation>
    </message>
</context>
<context>
    <name>sbx::LogWindow</name>
    <message>
        <source>Logs — Sandbox Console</source>
        <translation>日志 — 沙箱控制台</translation>
    </message>
    <message>
        <source>Open a log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <source>Logs (*.log *.txt *.out *.err);;All files (*)</source>
        <translation>日志 (*.log *.txt *.out *.err);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Close the log</source>
        <translation>关闭日志</translation>
    </message>
    <message>
        <source>Open a log file</source>
        <translation>打开日志文件</translation>
    </message>
</context>
<context>
    <name>sbx::MainWindow</name>
    <message>
        <source>Sandbox Console</source>
        <translation>沙箱控制台</translation>
    </message>
    <message>
        <source>Select a sandbox on the left, create one with Ctrl+Shift+N or add one by address with Ctrl+N.</source>
        <translation>在左侧选择一个沙箱，按 Ctrl+Shift+N 新建沙箱，或按 Ctrl+N 按地址添加沙箱。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;Add sandbox…</source>
        <translation>添加沙箱(&amp;A)…</translation>
    </message>
    <message>
        <source>Connect to a sandbox by address</source>
        <translation>按地址连接到沙箱</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>Change the address or credentials</source>
        <translation>更改地址或凭据</translation>
    </message>
    <message>
        <source>Re&amp;fresh status</source>
        <translation>刷新状态(&amp;F)</translation>
    </message>
    <message>
        <source>Check every sandbox now</source>
        <translation>立即检查所有沙箱</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;Sandbox</source>
        <translation>沙箱(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Sandboxes</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>%1 — Sandbox Console</source>
        <translation>%1 — 沙箱控制台</translation>
    </message>
    <message>
        <source>Secrets: system keychain</source>
        <translation>密钥：系统密钥环</translation>
    </message>
    <message>
        <source>Secrets: this session only (no keychain running)</source>
        <translation>密钥：仅本次会话（没有运行密钥环）</translation>
    </message>
    <message>
        <source>No keychain service answered, so API keys and JWTs you enter are kept in memory and forgotten when the console quits.</source>
        <translation>没有密钥环服务应答，因此你输入的 API 密钥和 JWT 只保存在内存中，控制台退出后即被遗忘。</translation>
    </message>
    <message>
        <source>Quit Sandbox Console</source>
        <translation>退出沙箱控制台</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) open in a viewer have changes that are not saved. Quitting loses them.</source>
        <translation>
            <numerusform>查看器中打开的 %n 个文件有未保存的更改。退出会丢失这些更改。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Discard and quit</source>
        <translation>放弃并退出(&amp;D)</translation>
    </message>
    <message numerus="yes">
        <source>%n transfer(s) have not finished. Quitting cancels them.</source>
        <translation>
            <numerusform>%n 个传输尚未完成。退出会取消它们。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n terminal(s) open in sandboxes that stop with the console. Quitting stops them and ends their shells.</source>
        <translation>
            <numerusform>有 %n 个终端打开在随控制台一同停止的沙箱中。退出会停止这些沙箱并结束其中的 shell。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Open log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a log file from this computer</source>
        <translation>打开本机上的日志文件</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>The console&apos;s API traffic with every sandbox (Ctrl+Shift+I)</source>
        <translation>控制台与所有沙箱之间的 API 流量 (Ctrl+Shift+I)</translation>
    </message>
    <message>
        <source>Edit the sandbox</source>
        <translation>编辑沙箱</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every keyboard shortcut, searchable</source>
        <translation>所有键盘快捷键，可搜索</translation>
    </message>
    <message>
        <source>&amp;About Sandbox Console</source>
        <translation>关于沙箱控制台(&amp;A)</translation>
    </message>
    <message>
        <source>Version and licences</source>
        <translation>版本和许可证</translation>
    </message>
    <message>
        <source>Container en&amp;gines…</source>
        <translation>容器引擎(&amp;G)…</translation>
    </message>
    <message>
        <source>The container engines whose sandboxes are listed: this machine, Docker contexts, engines over SSH or TLS</source>
        <translation>其沙箱被列出的容器引擎：本机、Docker 上下文、经 SSH 或 TLS 访问的引擎</translation>
    </message>
    <message>
        <source>&amp;Traffic inspector</source>
        <translation>流量检查器(&amp;T)</translation>
    </message>
</context>
<context>
    <name>sbx::McpExplorer</name>
    <message>
        <source>The server has more tools than it listed: it pages, and the next page brought nothing new.</source>
        <translation>服务器的工具比它列出的多：它使用分页，但下一页没有带来新内容。</translation>
    </message>
    <message>
        <source>must be a JSON object of the tool&apos;s parameters</source>
        <translation>必须是包含该工具参数的 JSON 对象</translation>
    </message>
</context>
<context>
    <name>sbx::McpFormView</name>
    <message>
        <source>A JSON field: %1.</source>
        <translation>JSON 字段：%1。</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>(choose)</source>
        <translation>（请选择）</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>This tool takes no arguments.</source>
        <translation>此工具不需要参数。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add an item to %1</source>
        <translation>向 %1 添加一项</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove item %1</source>
        <translation>移除第 %1 项</translation>
    </message>
</context>
<context>
    <name>sbx::McpHistoryModel</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>tool error</source>
        <translation>工具错误</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>用时</translation>
    </message>
</context>
<context>
    <name>sbx::McpJob</name>
    <message>
        <source>%1: the reply had no data</source>
        <translation>%1：应答中没有数据</translation>
    </message>
</context>
<context>
    <name>sbx::McpResultView</name>
    <message>
        <source>The tool reported an error (isError). Its content says what went wrong.</source>
        <translation>工具报告了错误 (isError)。其内容说明了出错原因。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Structured content&lt;/b&gt;</source>
        <translation>&lt;b&gt;结构化内容&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Fill in the form and press Call (Ctrl+Enter). The result shows here.</source>
        <translation>填写表单后按“调用”(Ctrl+Enter)。结果将显示在这里。</translation>
    </message>
    <message>
        <source>calling…</source>
        <translation>正在调用…</translation>
    </message>
    <message>
        <source>The call failed: %1</source>
        <translation>调用失败：%1</translation>
    </message>
    <message>
        <source>Cancelled: no result.</source>
        <translation>已取消：没有结果。</translation>
    </message>
    <message>
        <source> · %1 ms</source>
        <translation> · %1 毫秒</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save this content to a file</source>
        <translation>将此内容保存到文件</translation>
    </message>
    <message>
        <source>Save the result</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>sbx::McpTab</name>
    <message>
        <source>Run again</source>
        <translation>再次运行</translation>
    </message>
    <message>
        <source>Copy as curl</source>
        <translation>复制为 curl</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>List the servers and their tools again (F5)</source>
        <translation>重新列出服务器及其工具 (F5)</translation>
    </message>
    <message>
        <source>The sandbox&apos;s MCP servers (GET /v1/mcp/servers)</source>
        <translation>沙箱的 MCP 服务器 (GET /v1/mcp/servers)</translation>
    </message>
    <message>
        <source>Server:</source>
        <translation>服务器：</translation>
    </message>
    <message>
        <source>This session&apos;s calls: select one to see its result</source>
        <translation>本次会话的调用：选择一项以查看其结果</translation>
    </message>
    <message>
        <source>Call the selected entry&apos;s tool again with its arguments</source>
        <translation>使用所选条目的参数再次调用其工具</translation>
    </message>
    <message>
        <source>Copy the selected call as a curl command. Credentials are read from $SANDBOX_API_KEY or $SANDBOX_JWT, never copied.</source>
        <translation>将所选调用复制为 curl 命令。凭据从 $SANDBOX_API_KEY 或 $SANDBOX_JWT 读取，绝不会被复制。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Tools&lt;/b&gt;</source>
        <translation>&lt;b&gt;工具&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;History&lt;/b&gt;</source>
        <translation>&lt;b&gt;历史记录&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The arguments as a JSON object, e.g. {&quot;message&quot;: &quot;hi&quot;}</source>
        <translation>以 JSON 对象表示的参数，例如 {&quot;message&quot;: &quot;hi&quot;}</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Edit the arguments as JSON; they are checked against the tool&apos;s schema before they are sent</source>
        <translation>以 JSON 编辑参数；发送前会按工具的架构进行检查</translation>
    </message>
    <message>
        <source>Call the tool with these arguments (Ctrl+Enter)</source>
        <translation>使用这些参数调用工具 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Listing the MCP servers…</source>
        <translation>正在列出 MCP 服务器…</translation>
    </message>
    <message>
        <source>This sandbox has no MCP API: GET /v1/mcp/servers answered 404 (a sandbox-server started with --without mcp, or a server without AIO&apos;s /v1/mcp endpoints).</source>
        <translation>此沙箱没有 MCP API：GET /v1/mcp/servers 返回 404（可能是以 --without mcp 启动的 sandbox-server，或没有 AIO 的 /v1/mcp 端点的服务器）。</translation>
    </message>
    <message>
        <source>The MCP servers could not be listed: %1</source>
        <translation>无法列出 MCP 服务器：%1</translation>
    </message>
    <message>
        <source>The sandbox offers no MCP server. sandbox-server reads them from .sandbox-server/mcp-servers.json or SANDBOX_MCP_SERVERS.</source>
        <translation>沙箱没有提供 MCP 服务器。sandbox-server 从 .sandbox-server/mcp-servers.json 或 SANDBOX_MCP_SERVERS 读取服务器配置。</translation>
    </message>
    <message>
        <source>Listing the tools of %1 (a server starts on first use; it may be installed first)…</source>
        <translation>正在列出 %1 的工具（服务器在首次使用时启动；可能需要先安装）…</translation>
    </message>
    <message>
        <source>The tools of %1 could not be listed: %2</source>
        <translation>无法列出 %1 的工具：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;No tool selected&lt;/b&gt;</source>
        <translation>&lt;b&gt;未选择工具&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No form: %1</source>
        <translation>没有表单：%1</translation>
    </message>
    <message>
        <source>is not a JSON object: fix it before going back to the form</source>
        <translation>不是 JSON 对象：请先修正，再返回表单</translation>
    </message>
    <message>
        <source>the form has no field for %1: edit it in the JSON editor</source>
        <translation>表单中没有 %1 的字段：请在 JSON 编辑器中编辑</translation>
    </message>
    <message>
        <source>are not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>Not sent. %1</source>
        <translation>未发送。%1</translation>
    </message>
    <message>
        <source>it says it may delete or overwrite (destructiveHint)</source>
        <translation>它声明可能会删除或覆盖内容 (destructiveHint)</translation>
    </message>
    <message>
        <source>it does not say it is read-only or harmless, and MCP&apos;s defaults then count it as destructive</source>
        <translation>它没有声明自己是只读或无害的，按 MCP 的默认规则视为具有破坏性</translation>
    </message>
    <message>
        <source>%1 on %2 may change or delete things: %3.

Call it with these arguments?

%4</source>
        <translation>%2 上的 %1 可能会更改或删除内容：%3。

使用这些参数调用它吗？

%4</translation>
    </message>
    <message>
        <source>Call %1?</source>
        <translation>调用 %1？</translation>
    </message>
    <message>
        <source>Not called: %1 was not confirmed.</source>
        <translation>未调用：%1 未获确认。</translation>
    </message>
    <message>
        <source>Select the server %1 to run this call again.</source>
        <translation>请选择服务器 %1 以再次运行此调用。</translation>
    </message>
    <message>
        <source>%1 has no tool %2 any more.</source>
        <translation>%1 已不再有工具 %2。</translation>
    </message>
    <message>
        <source>Copied as curl: it reads the credentials from the environment.</source>
        <translation>已复制为 curl：它从环境变量读取凭据。</translation>
    </message>
    <message>
        <source>MCP</source>
        <translation>MCP</translation>
    </message>
    <message>
        <source>Call the tool</source>
        <translation>调用工具</translation>
    </message>
    <message>
        <source>Reload the tools</source>
        <translation>重新加载工具</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Call history</source>
        <translation>调用历史</translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation>MCP 服务器</translation>
    </message>
</context>
<context>
    <name>sbx::McpToolListModel</name>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Hints</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>The tool says it changes nothing (readOnlyHint)</source>
        <translation>该工具声明不会更改任何内容 (readOnlyHint)</translation>
    </message>
    <message>
        <source>destructive</source>
        <translation>破坏性</translation>
    </message>
    <message>
        <source>The tool says it may delete or overwrite (destructiveHint); calling it asks first</source>
        <translation>该工具声明可能会删除或覆盖内容 (destructiveHint)；调用前会先确认</translation>
    </message>
    <message>
        <source>The tool does not say it is read-only or harmless: MCP&apos;s defaults count it as destructive, so calling it asks first</source>
        <translation>该工具没有声明自己是只读或无害的：按 MCP 的默认规则视为具有破坏性，因此调用前会先确认</translation>
    </message>
    <message>
        <source>writes</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>The tool changes things, but says it does not destroy (destructiveHint false)</source>
        <translation>该工具会更改内容，但声明不具破坏性 (destructiveHint 为 false)</translation>
    </message>
    <message>
        <source>idempotent</source>
        <translation>幂等</translation>
    </message>
    <message>
        <source>Calling it again with the same arguments changes nothing more (idempotentHint)</source>
        <translation>使用相同参数再次调用不会产生更多更改 (idempotentHint)</translation>
    </message>
    <message>
        <source>open world</source>
        <translation>开放世界</translation>
    </message>
    <message>
        <source>The tool reaches beyond the sandbox: the web, other services (openWorldHint)</source>
        <translation>该工具会访问沙箱以外的内容：网络、其他服务 (openWorldHint)</translation>
    </message>
</context>
<context>
    <name>sbx::MintTicketJob</name>
    <message>
        <source>POST /tickets: the reply holds no ticket</source>
        <translation>POST /tickets：应答中没有票据</translation>
    </message>
</context>
<context>
    <name>sbx::MonitorFigures</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>CPU %1 of one core</source>
        <translation>CPU 占单核 %1</translation>
    </message>
    <message>
        <source>CPU –</source>
        <translation>CPU –</translation>
    </message>
    <message>
        <source>, throttled in %1 of %2 periods</source>
        <translation>，%2 个周期中有 %1 个被限流</translation>
    </message>
    <message>
        <source>Memory %1 (no limit)</source>
        <translation>内存 %1（无限制）</translation>
    </message>
    <message>
        <source>Memory %1 of %2 (%3)</source>
        <translation>内存 %1 / %2（%3）</translation>
    </message>
    <message>
        <source>Disk –</source>
        <translation>磁盘 –</translation>
    </message>
    <message>
        <source>Disk %1 of %2 (%3)</source>
        <translation>磁盘 %1 / %2（%3）</translation>
    </message>
    <message>
        <source>, inodes %1</source>
        <translation>，inode %1</translation>
    </message>
    <message>
        <source>OOM events %1, OOM kills %2</source>
        <translation>OOM 事件 %1 次，OOM 终止 %2 次</translation>
    </message>
    <message>
        <source>Source: cgroup of the sandbox</source>
        <translation>来源：沙箱的 cgroup</translation>
    </message>
    <message>
        <source>Source: sum over the sandbox&apos;s processes</source>
        <translation>来源：沙箱各进程的总和</translation>
    </message>
    <message>
        <source>Source: Docker stats</source>
        <translation>来源：Docker 统计</translation>
    </message>
    <message>
        <source>Source: not stated by the sandbox</source>
        <translation>来源：沙箱未说明</translation>
    </message>
    <message>
        <source>No capture running</source>
        <translation>没有正在进行的采集</translation>
    </message>
    <message>
        <source>Guardrail running</source>
        <translation>防护采集运行中</translation>
    </message>
    <message>
        <source>Capture running</source>
        <translation>采集运行中</translation>
    </message>
    <message>
        <source> since %1</source>
        <translation>，始于 %1</translation>
    </message>
    <message>
        <source>, until %1</source>
        <translation>，直到 %1</translation>
    </message>
    <message>
        <source>, every %1 s</source>
        <translation>，每 %1 秒</translation>
    </message>
    <message>
        <source>Source: sum over the sandbox&apos;s processes (%1 now)</source>
        <translation>来源：沙箱各进程的总和（当前 %1 个进程）</translation>
    </message>
    <message>
        <source>Source: the container engine&apos;s stats (the sandbox has no observe endpoints)</source>
        <translation>来源：容器引擎的统计（沙箱没有 observe 端点）</translation>
    </message>
    <message>
        <source>%1, %2 processes</source>
        <translation>%1，%2 个进程</translation>
    </message>
</context>
<context>
    <name>sbx::MonitorTab</name>
    <message>
        <source>Waiting for the first sample…</source>
        <translation>正在等待第一个样本…</translation>
    </message>
    <message>
        <source>CPU (% of one core)</source>
        <translation>CPU（单核百分比）</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disk (workspace)</source>
        <translation>磁盘（工作区）</translation>
    </message>
    <message>
        <source>Capture state not read yet</source>
        <translation>尚未读取采集状态</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Terminate (SIGTERM)</source>
        <translation>终止 (SIGTERM)</translation>
    </message>
    <message>
        <source>Kill (SIGKILL)</source>
        <translation>强制结束 (SIGKILL)</translation>
    </message>
    <message>
        <source>Interrupt (SIGINT)</source>
        <translation>中断 (SIGINT)</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Capture</source>
        <translation>采集</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Record a sample every second on the sandbox until stopped</source>
        <translation>在沙箱上每秒记录一个样本，直到停止</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Write a report of the running or last session (or of now) on the sandbox</source>
        <translation>在沙箱上为正在进行或上一次的采集（或当前时刻）生成报告</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Send %1</source>
        <translation>发送 %1</translation>
    </message>
    <message>
        <source>Send %1 to process %2 (%3) in the sandbox?</source>
        <translation>向沙箱中的进程 %2（%3）发送 %1 吗？</translation>
    </message>
    <message>
        <source>Sent %1 to %2 (%3).</source>
        <translation>已向 %2（%3）发送 %1。</translation>
    </message>
    <message>
        <source>Could not send %1 to %2 (%3): %4</source>
        <translation>无法向 %2（%3）发送 %1：%4</translation>
    </message>
    <message>
        <source>kill exited with %1</source>
        <translation>kill 已退出，退出码 %1</translation>
    </message>
    <message>
        <source>Could not send %1 to %2: %3</source>
        <translation>无法向 %2 发送 %1：%3</translation>
    </message>
    <message>
        <source>Save observe report</source>
        <translation>保存 observe 报告</translation>
    </message>
    <message>
        <source>Delete report</source>
        <translation>删除报告</translation>
    </message>
    <message>
        <source>Delete observe report %1 from the sandbox?</source>
        <translation>从沙箱中删除 observe 报告 %1 吗？</translation>
    </message>
    <message>
        <source>Memory (GB)</source>
        <translation>内存 (GB)</translation>
    </message>
    <message>
        <source>Memory (MB)</source>
        <translation>内存 (MB)</translation>
    </message>
    <message>
        <source>Disk, workspace (GB)</source>
        <translation>磁盘，工作区 (GB)</translation>
    </message>
    <message>
        <source>This sandbox has no observe API (/v1/sandbox/observe answered 404), so there is nothing to monitor here.</source>
        <translation>此沙箱没有 observe API（/v1/sandbox/observe 返回 404），因此这里没有可监控的内容。</translation>
    </message>
    <message>
        <source>No figures</source>
        <translation>没有数据</translation>
    </message>
    <message>
        <source>Monitoring paused: %1 (retrying)</source>
        <translation>监控已暂停：%1（正在重试）</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>observe report %1</source>
        <translation>observe 报告 %1</translation>
    </message>
    <message>
        <source>Downloading report %1 to %2: its progress is in the Files tab&apos;s transfers.</source>
        <translation>正在将报告 %1 下载到 %2：进度显示在“文件”标签页的传输列表中。</translation>
    </message>
    <message>
        <source>This sandbox has no observe API (/v1/sandbox/observe answered 404): CPU and memory come from the container engine instead; processes, disk, events and captures need the observe API.</source>
        <translation>此沙箱没有 observe API（/v1/sandbox/observe 返回 404）：CPU 和内存数据改为来自容器引擎；进程、磁盘、事件和采集需要 observe API。</translation>
    </message>
    <message>
        <source>Captures need the observe API</source>
        <translation>采集需要 observe API</translation>
    </message>
</context>
<context>
    <name>sbx::Nbformat</name>
    <message>
        <source>The file is not a notebook: it is not JSON.</source>
        <translation>该文件不是笔记本：它不是 JSON。</translation>
    </message>
    <message>
        <source>The file is not a notebook: it has no nbformat version.</source>
        <translation>该文件不是笔记本：它没有 nbformat 版本。</translation>
    </message>
    <message>
        <source>The notebook is nbformat %1; only nbformat 4 can be opened (Jupyter&apos;s nbconvert --to notebook upgrades older ones).</source>
        <translation>该笔记本为 nbformat %1；只能打开 nbformat 4（Jupyter 的 nbconvert --to notebook 可升级旧版本）。</translation>
    </message>
    <message>
        <source>The notebook has no list of cells.</source>
        <translation>该笔记本没有单元格列表。</translation>
    </message>
</context>
<context>
    <name>sbx::NewSandboxDialog</name>
    <message>
        <source>&amp;Image:</source>
        <translation>镜像(&amp;I)：</translation>
    </message>
    <message>
        <source>Workspace:</source>
        <translation>工作区：</translation>
    </message>
    <message>
        <source>A new folder (deleted with the sandbox)</source>
        <translation>新文件夹（随沙箱一起删除）</translation>
    </message>
    <message>
        <source>This folder (kept):</source>
        <translation>此文件夹（保留）：</translation>
    </message>
    <message>
        <source>Generated &amp;API key</source>
        <translation>生成的 API 密钥(&amp;A)</translation>
    </message>
    <message>
        <source>Generated &amp;JWT key pair (the console signs short-lived tokens)</source>
        <translation>生成的 JWT 密钥对(&amp;J)（由控制台签发短期令牌）</translation>
    </message>
    <message>
        <source>New sandbox</source>
        <translation>新建沙箱</translation>
    </message>
    <message>
        <source>An AIO sandbox image; the engine must have it or be able to pull it</source>
        <translation>AIO 沙箱镜像；引擎中必须已有该镜像或能够拉取它</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Runs as:</source>
        <translation>运行方式：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Authentication:</source>
        <translation>认证：</translation>
    </message>
    <message>
        <source>The key stays in the system keychain (or this session&apos;s memory); it never goes to a settings file.</source>
        <translation>密钥保存在系统密钥环中（或本次会话的内存中）；绝不会写入设置文件。</translation>
    </message>
    <message>
        <source>Startup hooks (optional shell commands)</source>
        <translation>启动钩子（可选的 shell 命令）</translation>
    </message>
    <message>
        <source>e.g. pip install -r requirements.txt</source>
        <translation>例如 pip install -r requirements.txt</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation>工作区文件夹</translation>
    </message>
    <message>
        <source>No provider here can create a sandbox.</source>
        <translation>这里没有能创建沙箱的提供程序。</translation>
    </message>
    <message>
        <source>Runs first, right after the sandbox starts, before its user and workspace are prepared.</source>
        <translation>最先运行：在沙箱启动后、准备其用户和工作区之前立即运行。</translation>
    </message>
    <message>
        <source>Runs after the user and workspace are ready, before the services start: install tools, write configuration.</source>
        <translation>在用户和工作区就绪后、服务启动前运行：用于安装工具、写入配置。</translation>
    </message>
    <message>
        <source>Runs once the services are up and answering: warm-up that needs the API.</source>
        <translation>在服务启动并可应答后运行：用于需要 API 的预热操作。</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>&amp;Publish on:</source>
        <translation>发布于(&amp;P)：</translation>
    </message>
    <message>
        <source>The engine is on another machine: its port is published on this address of that host (0.0.0.0: all of them), since its loopback is out of reach from here. Auth stays on: only this console holds the generated key.</source>
        <translation>引擎在另一台机器上：沙箱端口发布在该主机的这个地址上（0.0.0.0 表示全部地址），因为从这里无法访问它的回环地址。认证始终开启：只有本控制台持有生成的密钥。</translation>
    </message>
</context>
<context>
    <name>sbx::NotebookRunner</name>
    <message>
        <source>Stopped waiting: the node process runs on in the sandbox until its timeout (%1 s) kills it.</source>
        <translation>已停止等待：node 进程会在沙箱中继续运行，直到超时（%1 秒）后被强制结束。</translation>
    </message>
    <message>
        <source>The kernel is still starting. Restart to stop it.</source>
        <translation>内核仍在启动。重启可停止它。</translation>
    </message>
    <message>
        <source>This sandbox cannot interrupt a running cell (AIO&apos;s Jupyter API has no interrupt): the cell stops at its timeout, at most %1 s after it started. Restart the kernel to stop it now; its variables are lost.</source>
        <translation>此沙箱无法中断正在运行的单元格（AIO 的 Jupyter API 没有中断功能）：单元格会在超时时停止，最迟在启动后 %1 秒。重启内核可立即停止它，但其变量会丢失。</translation>
    </message>
    <message>
        <source>Interrupting…</source>
        <translation>正在中断…</translation>
    </message>
    <message>
        <source>The interrupt failed: %1. The cell stops at its timeout (%2 s), or restart the kernel to stop it now.</source>
        <translation>中断失败：%1。单元格将在超时（%2 秒）时停止，也可以重启内核立即停止它。</translation>
    </message>
    <message>
        <source>The kernel was restarted while this cell ran.</source>
        <translation>此单元格运行期间内核被重启了。</translation>
    </message>
    <message>
        <source>The old kernel could not be shut down: %1</source>
        <translation>无法关闭旧内核：%1</translation>
    </message>
    <message>
        <source>Kernel restarted: variables are gone; the next run starts a new kernel.</source>
        <translation>内核已重启：变量已清空；下次运行将启动新内核。</translation>
    </message>
    <message>
        <source>The sandbox was closed.</source>
        <translation>沙箱已关闭。</translation>
    </message>
    <message>
        <source>This sandbox has no Jupyter API (/v1/jupyter): Python cells cannot run here.</source>
        <translation>此沙箱没有 Jupyter API (/v1/jupyter)：无法在这里运行 Python 单元格。</translation>
    </message>
    <message>
        <source>Starting the kernel…</source>
        <translation>正在启动内核…</translation>
    </message>
    <message>
        <source>Stopped at its timeout (%1 s); the kernel was interrupted and keeps its state.</source>
        <translation>已在超时（%1 秒）时停止；内核已被中断，其状态保留。</translation>
    </message>
    <message>
        <source>The kernel had died and was started again before this cell: variables from before are lost. %1</source>
        <translation>内核在此单元格之前已终止并被重新启动：之前的变量已丢失。%1</translation>
    </message>
    <message>
        <source>Stopped at its timeout (%1 s); the node process was killed.</source>
        <translation>已在超时（%1 秒）时停止；node 进程已被强制结束。</translation>
    </message>
    <message>
        <source>node exited with code %1.</source>
        <translation>node 已退出，退出码 %1。</translation>
    </message>
    <message>
        <source>This sandbox has no /v1/code API: JavaScript cells cannot run here.</source>
        <translation>此沙箱没有 /v1/code API：无法在这里运行 JavaScript 单元格。</translation>
    </message>
    <message>
        <source>Interrupted; the kernel keeps its state.</source>
        <translation>已中断；内核保留其状态。</translation>
    </message>
</context>
<context>
    <name>sbx::NotebookStore</name>
    <message>
        <source>Untitled.ipynb</source>
        <translation>未命名.ipynb</translation>
    </message>
    <message>
        <source>%1 (sandbox)</source>
        <translation>%1（沙箱）</translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be read in the sandbox: %2</source>
        <translation>无法在沙箱中读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be written in the sandbox: %2</source>
        <translation>无法在沙箱中写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::NotificationCenter</name>
    <message>
        <source>%1 is back</source>
        <translation>%1 已恢复</translation>
    </message>
    <message>
        <source>The sandbox answers again.</source>
        <translation>沙箱重新响应了。</translation>
    </message>
    <message>
        <source>%1 refuses the credentials</source>
        <translation>%1 拒绝了凭据</translation>
    </message>
    <message>
        <source>%1 is unreachable</source>
        <translation>%1 无法访问</translation>
    </message>
    <message>
        <source>Run failed on %1</source>
        <translation>%1 上的运行失败</translation>
    </message>
    <message>
        <source>Run exited with %1 on %2</source>
        <translation>%2 上的运行以 %1 退出</translation>
    </message>
    <message>
        <source>Run finished on %1</source>
        <translation>%1 上的运行已完成</translation>
    </message>
    <message numerus="yes">
        <source>%n transfer(s) failed on %1</source>
        <translation>
            <numerusform>%1 上有 %n 个传输失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n transfer(s) finished on %1</source>
        <translation>
            <numerusform>%1 上有 %n 个传输已完成</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 did not complete.</source>
        <translation>%2 个中有 %1 个未完成。</translation>
    </message>
    <message>
        <source>The JWT of %1 expires at %2</source>
        <translation>%1 的 JWT 将于 %2 过期</translation>
    </message>
    <message>
        <source>The JWT of %1 has expired</source>
        <translation>%1 的 JWT 已过期</translation>
    </message>
    <message>
        <source>Enter a new token with Sandbox &gt; Edit (F2).</source>
        <translation>请通过“沙箱 &gt; 编辑 (F2)”输入新令牌。</translation>
    </message>
</context>
<context>
    <name>sbx::ObserveEventModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>sbx::ObserveJob</name>
    <message>
        <source>%1: the reply had no data</source>
        <translation>%1：应答中没有数据</translation>
    </message>
    <message>
        <source>report %1</source>
        <translation>报告 %1</translation>
    </message>
</context>
<context>
    <name>sbx::OutputView</name>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… 还有 %n 行未显示</numerusform>
        </translation>
    </message>
    <message>
        <source>[%1 that could not be decoded]</source>
        <translation>[无法解码的 %1]</translation>
    </message>
    <message>
        <source>[image %1×%2]</source>
        <translation>[图像 %1×%2]</translation>
    </message>
    <message>
        <source>[%1 output, not shown here]</source>
        <translation>[%1 输出，此处不显示]</translation>
    </message>
</context>
<context>
    <name>sbx::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>How often each sandbox&apos;s status is checked</source>
        <translation>检查各沙箱状态的频率</translation>
    </message>
    <message>
        <source>Status &amp;poll interval:</source>
        <translation>状态轮询间隔(&amp;P)：</translation>
    </message>
    <message>
        <source>Each check is one GET /v1/sandbox per running sandbox.</source>
        <translation>每次检查会对每个运行中的沙箱发送一次 GET /v1/sandbox。</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source> lines</source>
        <translation> 行</translation>
    </message>
    <message>
        <source>Lines each terminal keeps above the screen</source>
        <translation>每个终端在屏幕上方保留的行数</translation>
    </message>
    <message>
        <source>&amp;Scrollback:</source>
        <translation>回滚行数(&amp;S)：</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>Uploads and downloads that run at once; the rest wait</source>
        <translation>同时进行的上传和下载数量；其余的排队等待</translation>
    </message>
    <message>
        <source>&amp;Transfers at once:</source>
        <translation>同时传输数(&amp;T)：</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>System follows the desktop&apos;s language (LANG, LANGUAGE)</source>
        <translation>“跟随系统”使用桌面的语言 (LANG、LANGUAGE)</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language applies the next time the console starts.</source>
        <translation>新的语言将在控制台下次启动时生效。</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>System follows the desktop&apos;s colours</source>
        <translation>“跟随系统”使用桌面的配色</translation>
    </message>
    <message>
        <source>&amp;Colours:</source>
        <translation>配色(&amp;C)：</translation>
    </message>
    <message>
        <source>Icons and text</source>
        <translation>图标和文字</translation>
    </message>
    <message>
        <source>Icons only</source>
        <translation>仅图标</translation>
    </message>
    <message>
        <source>T&amp;oolbar:</source>
        <translation>工具栏(&amp;O)：</translation>
    </message>
    <message>
        <source>Show a desktop notification when:</source>
        <translation>在以下情况显示桌面通知：</translation>
    </message>
    <message>
        <source>a sandbox becomes &amp;unreachable or comes back</source>
        <translation>沙箱变为无法访问或恢复时(&amp;U)</translation>
    </message>
    <message>
        <source>a &amp;run finishes while the console is in the background</source>
        <translation>控制台在后台时运行完成(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;transfers finish while the console is in the background</source>
        <translation>控制台在后台时传输完成(&amp;T)</translation>
    </message>
    <message>
        <source>a &amp;JWT is about to expire</source>
        <translation>JWT 即将过期时(&amp;J)</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>The default colours and the sixteen system colours</source>
        <translation>默认颜色和十六种系统颜色</translation>
    </message>
    <message>
        <source>&amp;Font:</source>
        <translation>字体(&amp;F)：</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <source>Font si&amp;ze:</source>
        <translation>字号(&amp;Z)：</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Adaptive: on above a 30 ms round trip</source>
        <translation>自适应：往返时间超过 30 毫秒时开启</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>Typed characters show at once, underlined, until the sandbox&apos;s echo confirms them (as mosh does); never in full-screen programs or at password prompts</source>
        <translation>输入的字符立即显示并带下划线，直到沙箱的回显确认它们（与 mosh 相同）；全屏程序和密码提示中从不预测</translation>
    </message>
    <message>
        <source>&amp;Local echo:</source>
        <translation>本地回显(&amp;L)：</translation>
    </message>
</context>
<context>
    <name>sbx::ProcessTableModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Memory (RSS)</source>
        <translation>内存 (RSS)</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父进程</translation>
    </message>
</context>
<context>
    <name>sbx::ReadFileJob</name>
    <message>
        <source>%1: the reply has no content</source>
        <translation>%1：应答中没有 content</translation>
    </message>
</context>
<context>
    <name>sbx::RemoteCommandJob</name>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
    <message>
        <source>Could not %1: %2</source>
        <translation>无法%1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::RemoteFileLog</name>
    <message>
        <source>The sandbox is gone</source>
        <translation>沙箱已不存在</translation>
    </message>
    <message>
        <source>The file was truncated; showing it again from its start</source>
        <translation>文件已被截断；从头重新显示</translation>
    </message>
    <message>
        <source>The file was replaced; showing the new one from its start</source>
        <translation>文件已被替换；从头显示新文件</translation>
    </message>
    <message>
        <source>Cannot follow %1: %2</source>
        <translation>无法跟踪 %1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::RemoteFileModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
</context>
<context>
    <name>sbx::RemoteFileOperations</name>
    <message>
        <source>%1 is %2: the viewer opens files up to %3. Use Download… instead.</source>
        <translation>%1 大小为 %2：查看器只能打开不超过 %3 的文件。请改用“下载…”。</translation>
    </message>
    <message>
        <source>create the folders for the upload</source>
        <translation>为上传创建文件夹</translation>
    </message>
    <message>
        <source>move the upload into %1</source>
        <translation>将上传的内容移入 %1</translation>
    </message>
    <message>
        <source>%1 is a folder: drag out files only, or use Download… for folders.</source>
        <translation>%1 是文件夹：只能拖出文件，文件夹请使用“下载…”。</translation>
    </message>
    <message>
        <source>%1 is %2: drags to the desktop carry files under %3. Use Download… for larger files.</source>
        <translation>%1 大小为 %2：拖到桌面只能携带小于 %3 的文件。更大的文件请使用“下载…”。</translation>
    </message>
</context>
<context>
    <name>sbx::ReportListModel</name>
    <message>
        <source>(live snapshot)</source>
        <translation>（实时快照）</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>sbx::RunListModel</name>
    <message>
        <source>%1 (followed)</source>
        <translation>%1（跟踪中）</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
</context>
<context>
    <name>sbx::RunsTab</name>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>再次运行</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Type a command above and press Enter. Its output streams here, searchable while it runs.</source>
        <translation>在上方输入命令并按 Enter。其输出会实时显示在这里，运行期间即可搜索。</translation>
    </message>
    <message>
        <source>Command, e.g. make test (Up/Down: history)</source>
        <translation>命令，例如 make test（上/下方向键：历史记录）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Working folder (default: the session&apos;s)</source>
        <translation>工作文件夹（默认：会话的文件夹）</translation>
    </message>
    <message>
        <source>Environment, e.g. DEBUG=1 NAME=&apos;two words&apos;</source>
        <translation>环境变量，例如 DEBUG=1 NAME=&apos;two words&apos;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs&lt;/b&gt;</source>
        <translation>&lt;b&gt;运行&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sessions&lt;/b&gt;</source>
        <translation>&lt;b&gt;会话&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟踪</translation>
    </message>
    <message>
        <source>Follow the selected bash session&apos;s current command</source>
        <translation>跟踪所选 bash 会话的当前命令</translation>
    </message>
    <message>
        <source>Input for the running command (Enter sends it with a newline)</source>
        <translation>正在运行的命令的输入（按 Enter 连同换行符一起发送）</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s)</source>
        <translation>
            <numerusform>%n 个会话</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop the run (Ctrl+.): SIGINT, then SIGTERM, then SIGKILL</source>
        <translation>停止运行 (Ctrl+.)：依次发送 SIGINT、SIGTERM、SIGKILL</translation>
    </message>
    <message>
        <source>Environment: %1</source>
        <translation>环境变量：%1</translation>
    </message>
    <message>
        <source>The working folder must be an absolute path.</source>
        <translation>工作文件夹必须是绝对路径。</translation>
    </message>
    <message>
        <source> The Terminal tab runs commands in a shell session.</source>
        <translation> “终端”标签页在 shell 会话中运行命令。</translation>
    </message>
    <message>
        <source>Shell sessions are interactive: open them from the Terminal tab.</source>
        <translation>Shell 会话是交互式的：请从“终端”标签页打开。</translation>
    </message>
    <message>
        <source>session %1</source>
        <translation>会话 %1</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>Kill (SIGKILL)</source>
        <translation>强制结束 (SIGKILL)</translation>
    </message>
    <message>
        <source>Stop (%1)</source>
        <translation>停止 (%1)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source> · stdout %1, stderr %2</source>
        <translation> · stdout %1，stderr %2</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Double-click a bash session to follow what it runs, a shell session to open it</source>
        <translation>双击 bash 会话可跟踪其运行的命令，双击 shell 会话可将其打开</translation>
    </message>
    <message>
        <source>Stop the run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Type a command</source>
        <translation>输入命令</translation>
    </message>
    <message>
        <source>Shell sessions</source>
        <translation>Shell 会话</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Input to the run</source>
        <translation>运行的输入</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxActions</name>
    <message>
        <source>&amp;New sandbox…</source>
        <translation>新建沙箱(&amp;N)…</translation>
    </message>
    <message>
        <source>Create a sandbox on this machine or in a container engine (Ctrl+Shift+N)</source>
        <translation>在本机或容器引擎中创建沙箱 (Ctrl+Shift+N)</translation>
    </message>
    <message>
        <source>S&amp;tart</source>
        <translation>启动(&amp;T)</translation>
    </message>
    <message>
        <source>Start the selected sandboxes</source>
        <translation>启动所选沙箱</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Freeze the sandbox and every process in it</source>
        <translation>冻结沙箱及其中的所有进程</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>恢复(&amp;U)</translation>
    </message>
    <message>
        <source>Let a paused sandbox run again</source>
        <translation>让已暂停的沙箱继续运行</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>Stop the selected sandboxes; their shutdown hooks run first</source>
        <translation>停止所选沙箱；会先运行其关闭钩子</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Stop and delete (or forget) the selected</source>
        <translation>停止并删除（或移除）所选沙箱</translation>
    </message>
    <message>
        <source>&amp;Logs</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <source>Show the sandbox&apos;s server or container log</source>
        <translation>显示沙箱的服务器或容器日志</translation>
    </message>
    <message>
        <source>%1 (%2, in the list)</source>
        <translation>%1（%2，在列表中）</translation>
    </message>
    <message>
        <source>Delete this sandbox? This cannot be undone.</source>
        <translation>删除此沙箱吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete these %1 sandboxes? This cannot be undone.</source>
        <translation>删除这 %1 个沙箱吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Stop this sandbox? Their shutdown hooks run, then every process in them ends.</source>
        <translation>停止此沙箱吗？会先运行其关闭钩子，然后结束其中的所有进程。</translation>
    </message>
    <message>
        <source>Stop these %1 sandboxes? Their shutdown hooks run, then every process in them ends.</source>
        <translation>停止这 %1 个沙箱吗？会先运行其关闭钩子，然后结束其中的所有进程。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>API key of %1</source>
        <translation>%1 的 API 密钥</translation>
    </message>
    <message>
        <source>The sandbox “%1” accepts this API key (header X-AIO-API-Key or Bearer). The console keeps it in the keychain and uses it itself; this is the only time it is shown.</source>
        <translation>沙箱“%1”接受此 API 密钥（请求头 X-AIO-API-Key 或 Bearer）。控制台会将其保存在密钥环中并自行使用；这是它唯一一次显示。</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxClient</name>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxDialog</name>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Add sandbox</source>
        <translation>添加沙箱</translation>
    </message>
    <message>
        <source>e.g. Staging agent</source>
        <translation>例如：预发布智能体</translation>
    </message>
    <message>
        <source>http://localhost:8080</source>
        <translation>http://localhost:8080</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>API key (SANDBOX_API_KEY)</source>
        <translation>API 密钥 (SANDBOX_API_KEY)</translation>
    </message>
    <message>
        <source>JWT (signed for JWT_PUBLIC_KEY)</source>
        <translation>JWT（按 JWT_PUBLIC_KEY 签名）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show or hide the secret</source>
        <translation>显示或隐藏密钥</translation>
    </message>
    <message>
        <source>System certificates</source>
        <translation>系统证书</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt);;All files (*)</source>
        <translation>证书 (*.pem *.crt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <source>A&amp;uthentication:</source>
        <translation>认证(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Secret:</source>
        <translation>密钥(&amp;S)：</translation>
    </message>
    <message>
        <source>CA &amp;file:</source>
        <translation>CA 文件(&amp;F)：</translation>
    </message>
    <message>
        <source>No system keychain is running: the secret is kept in memory for this session only.</source>
        <translation>没有运行系统密钥环：密钥仅在本次会话的内存中保存。</translation>
    </message>
    <message>
        <source>Stored in the system keychain, never in the settings file.</source>
        <translation>保存在系统密钥环中，绝不写入设置文件。</translation>
    </message>
    <message>
        <source>Edit sandbox</source>
        <translation>编辑沙箱</translation>
    </message>
    <message>
        <source>Trusted certificate SHA-256: %1</source>
        <translation>受信任证书的 SHA-256：%1</translation>
    </message>
    <message>
        <source>Enter the API key</source>
        <translation>请输入 API 密钥</translation>
    </message>
    <message>
        <source>Paste the JWT</source>
        <translation>请粘贴 JWT</translation>
    </message>
    <message>
        <source>That is not a JWT: a JWT has three parts separated by dots</source>
        <translation>这不是 JWT：JWT 由三段以点分隔的部分组成</translation>
    </message>
    <message>
        <source>The sandbox&apos;s SANDBOX_API_KEY</source>
        <translation>沙箱的 SANDBOX_API_KEY</translation>
    </message>
    <message>
        <source>⚠ This JWT has expired.</source>
        <translation>⚠ 此 JWT 已过期。</translation>
    </message>
    <message>
        <source>⚠ This JWT expires in %1 min.</source>
        <translation>⚠ 此 JWT 将在 %1 分钟后过期。</translation>
    </message>
    <message>
        <source>Expires %1</source>
        <translation>过期时间 %1</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <source>%1: sandbox %2, %3 ms</source>
        <translation>%1：沙箱 %2，%3 毫秒</translation>
    </message>
    <message>
        <source>✔ Connected</source>
        <translation>✔ 已连接</translation>
    </message>
    <message>
        <source>%1, extensions: %2</source>
        <translation>%1，扩展：%2</translation>
    </message>
    <message>
        <source>Untrusted certificate</source>
        <translation>不受信任的证书</translation>
    </message>
    <message>
        <source>The sandbox presented a certificate that no trusted authority signed.

SHA-256 fingerprint:
%1

Trust this certificate for this sandbox only if the fingerprint matches the one on the server.</source>
        <translation>沙箱出示的证书未经任何受信任的机构签发。

SHA-256 指纹：
%1

只有在该指纹与服务器上的指纹一致时，才为此沙箱信任此证书。</translation>
    </message>
    <message>
        <source>&amp;Trust it</source>
        <translation>信任(&amp;T)</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxHook</name>
    <message>
        <source>The timeout must be a number of seconds</source>
        <translation>超时必须是秒数</translation>
    </message>
    <message>
        <source>A name is required</source>
        <translation>必须填写名称</translation>
    </message>
    <message>
        <source>At most %1 characters (this one has %2)</source>
        <translation>最多 %1 个字符（当前为 %2 个）</translation>
    </message>
    <message>
        <source>Only letters A-Z and a-z, digits, &apos;_&apos; and &apos;-&apos;</source>
        <translation>只能使用字母 A-Z 和 a-z、数字、&apos;_&apos; 和 &apos;-&apos;</translation>
    </message>
    <message>
        <source>Only shutdown hooks exist</source>
        <translation>只有关闭钩子</translation>
    </message>
    <message>
        <source>Set by SANDBOX_SHUTDOWN_HOOKS when the sandbox started; cannot be changed here.</source>
        <translation>由沙箱启动时的 SANDBOX_SHUTDOWN_HOOKS 设置；不能在这里更改。</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxListModel</name>
    <message>
        <source>State: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>JWT expires %1</source>
        <translation>JWT 过期时间 %1</translation>
    </message>
    <message>
        <source>JWT expired</source>
        <translation>JWT 已过期</translation>
    </message>
    <message>
        <source>%1 · JWT expired</source>
        <translation>%1 · JWT 已过期</translation>
    </message>
    <message>
        <source>%1 · JWT expires in %2 min</source>
        <translation>%1 · JWT 将在 %2 分钟后过期</translation>
    </message>
    <message>
        <source>&lt;1 ms</source>
        <translation>&lt;1 毫秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>CPU · Mem</source>
        <translation>CPU · 内存</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxProvider</name>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>online</source>
        <translation>在线</translation>
    </message>
    <message>
        <source>auth failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot do that</source>
        <translation>%1沙箱不支持此操作</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be started from the console</source>
        <translation>%1沙箱不能从控制台启动</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be paused from the console</source>
        <translation>%1沙箱不能从控制台暂停</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be resumed from the console</source>
        <translation>%1沙箱不能从控制台恢复</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be stopped from the console</source>
        <translation>%1沙箱不能从控制台停止</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be deleted from the console</source>
        <translation>%1沙箱不能从控制台删除</translation>
    </message>
    <message>
        <source>forgotten here; the sandbox itself keeps running</source>
        <translation>仅从此处移除；沙箱本身继续运行</translation>
    </message>
    <message>
        <source>Give the sandbox a name.</source>
        <translation>请为沙箱命名。</translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be created from the console</source>
        <translation>%1沙箱不能从控制台创建</translation>
    </message>
    <message>
        <source>This kind of sandbox has no resource figures of its own.</source>
        <translation>此类沙箱没有自己的资源数据。</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxRegistry</name>
    <message>
        <source>The sandbox is no longer listed.</source>
        <translation>该沙箱已不在列表中。</translation>
    </message>
</context>
<context>
    <name>sbx::SandboxWorkspace</name>
    <message>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Authentication failed.&lt;/b&gt; </source>
        <translation>&lt;b&gt;认证失败。&lt;/b&gt; </translation>
    </message>
    <message>
        <source>&lt;b&gt;Unreachable.&lt;/b&gt; </source>
        <translation>&lt;b&gt;无法访问。&lt;/b&gt; </translation>
    </message>
    <message>
        <source>&lt;b&gt;Paused.&lt;/b&gt; Every process in this sandbox is frozen; requests wait until it is resumed (Resume in the sandbox list). </source>
        <translation>&lt;b&gt;已暂停。&lt;/b&gt;此沙箱中的所有进程都已冻结；请求会等待到沙箱恢复（在沙箱列表中点击“恢复”）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopping.&lt;/b&gt; Its shutdown hooks run before it exits. </source>
        <translation>&lt;b&gt;正在停止。&lt;/b&gt;退出前会运行其关闭钩子。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped.&lt;/b&gt; Start it from the sandbox list. </source>
        <translation>&lt;b&gt;已停止。&lt;/b&gt;请从沙箱列表中启动它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1.&lt;/b&gt; </source>
        <translation>&lt;b&gt;%1。&lt;/b&gt; </translation>
    </message>
</context>
<context>
    <name>sbx::SavedEndpoints</name>
    <message>
        <source>The credential is not in the keychain: edit the sandbox to enter it again</source>
        <translation>凭据不在密钥环中：请编辑沙箱并重新输入</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
</context>
<context>
    <name>sbx::SessionListModel</name>
    <message>
        <source>(idle)</source>
        <translation>（空闲）</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Current command</source>
        <translation>当前命令</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存在时长</translation>
    </message>
    <message>
        <source>Last use</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
</context>
<context>
    <name>sbx::SessionStore</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The saved session %1 is damaged (%2); starting without it.</source>
        <translation>保存的会话 %1 已损坏 (%2)；将不使用它启动。</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>The session was not saved: it held what looks like a credential.</source>
        <translation>会话未保存：其中含有疑似凭据的内容。</translation>
    </message>
    <message>
        <source>Cannot save the session to %1: %2</source>
        <translation>无法将会话保存到 %1：%2</translation>
    </message>
</context>
<context>
    <name>sbx::ShellExecJob</name>
    <message>
        <source>%1: the reply has no status</source>
        <translation>%1：应答中没有 status</translation>
    </message>
</context>
<context>
    <name>sbx::ShortcutsDialog</name>
    <message>
        <source>Sandbox list</source>
        <translation>沙箱列表</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>Copy the selection</source>
        <translation>复制所选内容</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Find in the terminal</source>
        <translation>在终端中查找</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <source>Text at its normal size</source>
        <translation>恢复正常文字大小</translation>
    </message>
    <message>
        <source>Scroll back a page</source>
        <translation>向上滚动一页</translation>
    </message>
    <message>
        <source>Scroll forward a page</source>
        <translation>向下滚动一页</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Does</source>
        <translation>作用</translation>
    </message>
    <message>
        <source>Filter by key, action or place</source>
        <translation>按按键、操作或位置筛选</translation>
    </message>
    <message>
        <source>Filter shortcuts</source>
        <translation>筛选快捷键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>sbx::SshLink</name>
    <message>
        <source>ssh did not finish in time</source>
        <translation>ssh 未能按时结束</translation>
    </message>
    <message>
        <source>ssh ended with status %1</source>
        <translation>ssh 以状态 %1 结束</translation>
    </message>
    <message>
        <source>The host key of %1 has changed since you trusted it: someone may be intercepting the connection. If the host was reinstalled, remove its old key (ssh-keygen -R) and connect again.</source>
        <translation>自你信任以来，%1 的主机密钥已改变：可能有人在截获连接。如果该主机重装过，请移除其旧密钥（ssh-keygen -R）后重新连接。</translation>
    </message>
    <message>
        <source>The host key of %1 is not known yet</source>
        <translation>尚不知道 %1 的主机密钥</translation>
    </message>
    <message>
        <source>%1 refused the login (%2). The console signs in with your SSH keys and agent, never a password: add the key to the agent, or name it with -i in the engine&apos;s SSH options.</source>
        <translation>%1 拒绝了登录（%2）。控制台使用你的 SSH 密钥和代理登录，从不使用密码：请把密钥加入代理，或在引擎的 SSH 选项中用 -i 指定它。</translation>
    </message>
    <message>
        <source>Nothing accepts SSH connections at %1 (is sshd running there, and is the port right?)</source>
        <translation>%1 处没有任何程序接受 SSH 连接（那里的 sshd 是否在运行？端口是否正确？）</translation>
    </message>
    <message>
        <source>The host of %1 is not known (%2)</source>
        <translation>未知 %1 的主机（%2）</translation>
    </message>
    <message>
        <source>%1 cannot be reached over SSH: %2</source>
        <translation>无法通过 SSH 访问 %1：%2</translation>
    </message>
    <message>
        <source>SSH to %1 failed: %2</source>
        <translation>SSH 到 %1 失败：%2</translation>
    </message>
    <message>
        <source>Cannot make a private folder for the SSH link</source>
        <translation>无法为 SSH 连接创建私有文件夹</translation>
    </message>
    <message>
        <source>The ssh client is not installed (openssh-client)</source>
        <translation>未安装 ssh 客户端（openssh-client）</translation>
    </message>
    <message>
        <source>%1 did not finish signing in within %2 s</source>
        <translation>%1 未能在 %2 秒内完成登录</translation>
    </message>
    <message>
        <source>The SSH connection to %1 dropped: %2</source>
        <translation>到 %1 的 SSH 连接已断开：%2</translation>
    </message>
    <message>
        <source>No container engine socket on %1 ($DOCKER_HOST, /var/run/docker.sock and the podman sockets were looked at). Start the engine there, or name its socket: ssh://user@host/path/to/engine.sock</source>
        <translation>%1 上没有容器引擎套接字（已查找 $DOCKER_HOST、/var/run/docker.sock 和 podman 套接字）。请在那里启动引擎，或指明其套接字：ssh://user@host/path/to/engine.sock</translation>
    </message>
    <message>
        <source>Cannot look for the engine on %1: %2</source>
        <translation>无法在 %1 上查找引擎：%2</translation>
    </message>
    <message>
        <source>%1 would not forward the engine socket %2: %3</source>
        <translation>%1 不肯转发引擎套接字 %2：%3</translation>
    </message>
    <message>
        <source>The host key of %1 is not known, and it cannot be read to show you: %2</source>
        <translation>尚不知道 %1 的主机密钥，且无法读取它以向你展示：%2</translation>
    </message>
    <message>
        <source>The host key of %1 is not known yet. Trust it if its fingerprint is the host&apos;s: %2</source>
        <translation>尚不知道 %1 的主机密钥。如果其指纹确属该主机，请信任它：%2</translation>
    </message>
    <message>
        <source>Cannot add the host key to %1: %2</source>
        <translation>无法把主机密钥加入 %1：%2</translation>
    </message>
    <message>
        <source>The SSH connection to %1 is not up</source>
        <translation>到 %1 的 SSH 连接未建立</translation>
    </message>
    <message>
        <source>%1 would not forward a port to %2:%3: %4</source>
        <translation>%1 不肯转发端口到 %2:%3：%4</translation>
    </message>
</context>
<context>
    <name>sbx::Status</name>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>Connection refused at %1: is the sandbox running?</source>
        <translation>%1 拒绝连接：沙箱是否在运行？</translation>
    </message>
    <message>
        <source>Host not found: %1</source>
        <translation>找不到主机：%1</translation>
    </message>
    <message>
        <source>The server at %1 closed the connection before answering</source>
        <translation>%1 处的服务器在应答前关闭了连接</translation>
    </message>
    <message>
        <source>No answer from %1</source>
        <translation>%1 没有应答</translation>
    </message>
    <message>
        <source>The TLS certificate of %1 is not trusted</source>
        <translation>%1 的 TLS 证书不受信任</translation>
    </message>
    <message>
        <source>Network failure while talking to %1</source>
        <translation>与 %1 通信时发生网络故障</translation>
    </message>
    <message>
        <source>The proxy in front of %1 failed</source>
        <translation>%1 前面的代理出错</translation>
    </message>
    <message>
        <source>Could not talk to %1</source>
        <translation>无法与 %1 通信</translation>
    </message>
    <message>
        <source>%1 refused %2 %3: %4</source>
        <translation>%1 拒绝了 %2 %3：%4</translation>
    </message>
    <message>
        <source>%1 requires authentication: add its API key or a JWT</source>
        <translation>%1 需要认证：请添加其 API 密钥或 JWT</translation>
    </message>
    <message>
        <source>Wrong API key for %1</source>
        <translation>%1 的 API 密钥错误</translation>
    </message>
    <message>
        <source>%1 refused the API key from %2</source>
        <translation>%1 拒绝了来自 %2 的 API 密钥</translation>
    </message>
    <message>
        <source>%1 refused the JWT: expired, not yet valid, or not signed with the sandbox&apos;s key</source>
        <translation>%1 拒绝了 JWT：已过期、尚未生效，或不是用沙箱的密钥签名的</translation>
    </message>
    <message>
        <source>%1 refused the console&apos;s signed JWT: it does not trust this console&apos;s key</source>
        <translation>%1 拒绝了控制台签名的 JWT：它不信任此控制台的密钥</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>No answer from %1 within %2 s</source>
        <translation>%1 在 %2 秒内没有应答</translation>
    </message>
    <message>
        <source>%1 %2 failed: %3 (HTTP %4)</source>
        <translation>%1 %2 失败：%3 (HTTP %4)</translation>
    </message>
    <message>
        <source>%1 has no %2: is this an AIO sandbox?</source>
        <translation>%1 没有 %2：这是 AIO 沙箱吗？</translation>
    </message>
    <message>
        <source>%1: conflict</source>
        <translation>%1：冲突</translation>
    </message>
    <message>
        <source>%1 was refused as invalid (HTTP %2)</source>
        <translation>%1 因无效而被拒绝 (HTTP %2)</translation>
    </message>
    <message>
        <source>Sandbox service error (HTTP %1)%2</source>
        <translation>沙箱服务错误 (HTTP %1)%2</translation>
    </message>
    <message>
        <source>Unexpected HTTP %1 from %2 for %3</source>
        <translation>%2 对 %3 返回了意外的 HTTP %1</translation>
    </message>
</context>
<context>
    <name>sbx::SudoListFilesJob</name>
    <message>
        <source>Listing %1 with sudo: the command printed no listing</source>
        <translation>使用 sudo 列出 %1：命令没有输出列表</translation>
    </message>
    <message>
        <source>Listing %1 with sudo: the listing is garbled</source>
        <translation>使用 sudo 列出 %1：列表内容已损坏</translation>
    </message>
    <message>
        <source>list %1 with sudo</source>
        <translation>使用 sudo 列出 %1</translation>
    </message>
</context>
<context>
    <name>sbx::TerminalChannel</name>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
    <message>
        <source>Could not open the terminal: %1</source>
        <translation>无法打开终端：%1</translation>
    </message>
    <message>
        <source>Reconnected. This sandbox does not replay output, so anything printed while the connection was down is missing.</source>
        <translation>已重新连接。此沙箱不支持输出回放，连接中断期间输出的内容已丢失。</translation>
    </message>
    <message>
        <source>The session %1 is gone; this is a new session.</source>
        <translation>会话 %1 已不存在；这是一个新会话。</translation>
    </message>
    <message>
        <source>The connection fell behind: %1 KiB of output were skipped.</source>
        <translation>连接跟不上输出：已跳过 %1 KiB 的输出。</translation>
    </message>
    <message>
        <source>the server reported an error</source>
        <translation>服务器报告了错误</translation>
    </message>
    <message>
        <source>The session ended (exit status %1)</source>
        <translation>会话已结束（退出状态 %1）</translation>
    </message>
    <message>
        <source>The session ended</source>
        <translation>会话已结束</translation>
    </message>
    <message>
        <source>%1 refused the credentials</source>
        <translation>%1 拒绝了凭据</translation>
    </message>
    <message>
        <source>the connection to %1 was lost</source>
        <translation>与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>Gave up reconnecting after %1 attempts: %2</source>
        <translation>尝试 %1 次后放弃重新连接：%2</translation>
    </message>
    <message>
        <source>The terminal was closed</source>
        <translation>终端已关闭</translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s) typed while the connection was down were not sent.</source>
        <translation>
            <numerusform>连接中断期间输入的 %n 个字节未发送。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sbx::TerminalFindBar</name>
    <message>
        <source>Find in scrollback</source>
        <translation>在回滚内容中查找</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>sbx::TerminalPane</name>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Reconnect now</source>
        <translation>立即重新连接</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Connection lost: reconnecting to the session…</source>
        <translation>连接已断开：正在重新连接到会话…</translation>
    </message>
    <message>
        <source>Send them</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message numerus="yes">
        <source>A new session replaced the one these keys were typed for: send the %n waiting byte(s) to it?</source>
        <translation>
            <numerusform>这些按键所针对的会话已被新会话取代：要把等待中的 %n 个字节发送给新会话吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Not sent: more than %1 KiB typed while the connection is down.</source>
        <translation>未发送：连接中断期间输入超过了 %1 KiB。</translation>
    </message>
    <message>
        <source>Not sent: the terminal is not connected.</source>
        <translation>未发送：终端未连接。</translation>
    </message>
    <message numerus="yes">
        <source>Connection lost: reconnecting to the session… %n byte(s) typed meanwhile will be sent when it is back…</source>
        <translation>
            <numerusform>连接已断开：正在重新连接会话… 期间输入的 %n 个字节将在恢复后发送…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sbx::TerminalTab</name>
    <message>
        <source>Split</source>
        <translation>拆分</translation>
    </message>
    <message>
        <source>Open a new shell beside this one (%1); the arrow offers a second view of this shell</source>
        <translation>在旁边打开一个新的 shell (%1)；箭头菜单可为此 shell 再开一个视图</translation>
    </message>
    <message>
        <source>Same session</source>
        <translation>同一会话</translation>
    </message>
    <message>
        <source>A second view of this shell: what you type in either shows in both</source>
        <translation>此 shell 的第二个视图：在任一视图中输入的内容会同时显示在两个视图中</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>A new shell beside this one</source>
        <translation>在旁边打开一个新的 shell</translation>
    </message>
    <message>
        <source>Rename terminal</source>
        <translation>重命名终端</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>New terminal</source>
        <translation>新建终端</translation>
    </message>
    <message>
        <source>Open a new shell session (Ctrl+Shift+T)</source>
        <translation>打开新的 shell 会话 (Ctrl+Shift+T)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Attach to a shell session already running in the sandbox</source>
        <translation>连接到沙箱中已在运行的 shell 会话</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Terminal %1</source>
        <translation>终端 %1</translation>
    </message>
    <message>
        <source>Reading sessions…</source>
        <translation>正在读取会话…</translation>
    </message>
    <message>
        <source>No sessions are running</source>
        <translation>没有正在运行的会话</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>Close the terminal</source>
        <translation>关闭终端</translation>
    </message>
    <message>
        <source>Split the terminal</source>
        <translation>拆分终端</translation>
    </message>
    <message>
        <source>The session %1 is gone; this is a new session.</source>
        <translation>会话 %1 已不存在；这是一个新会话。</translation>
    </message>
    <message>
        <source>Close %1</source>
        <translation>关闭 %1</translation>
    </message>
    <message>
        <source>under 1 ms</source>
        <translation>不到 1 毫秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Round trip %1 · local echo on</source>
        <translation>往返 %1 · 本地回显已开启</translation>
    </message>
    <message>
        <source>Round trip %1</source>
        <translation>往返 %1</translation>
    </message>
</context>
<context>
    <name>sbx::TerminalView</name>
    <message>
        <source>Paste several lines</source>
        <translation>粘贴多行</translation>
    </message>
    <message numerus="yes">
        <source>The text holds %n lines; a shell runs each as a command as soon as it is pasted. Paste it?</source>
        <translation>
            <numerusform>该文本共有 %n 行；粘贴后 shell 会立即将每一行作为命令执行。要粘贴吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
</context>
<context>
    <name>sbx::ToolForm</name>
    <message>
        <source>URI, e.g. https://example.com/a</source>
        <translation>URI，例如 https://example.com/a</translation>
    </message>
    <message>
        <source>URL, e.g. https://example.com/a</source>
        <translation>URL，例如 https://example.com/a</translation>
    </message>
    <message>
        <source>email address</source>
        <translation>电子邮件地址</translation>
    </message>
    <message>
        <source>date and time, e.g. 2026-12-01T09:30:00Z</source>
        <translation>日期和时间，例如 2026-12-01T09:30:00Z</translation>
    </message>
    <message>
        <source>date, e.g. 2026-12-01</source>
        <translation>日期，例如 2026-12-01</translation>
    </message>
    <message>
        <source>time, e.g. 09:30:00</source>
        <translation>时间，例如 09:30:00</translation>
    </message>
    <message>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>host name</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>IPv4 address</source>
        <translation>IPv4 地址</translation>
    </message>
    <message>
        <source>IPv6 address</source>
        <translation>IPv6 地址</translation>
    </message>
    <message numerus="yes">
        <source>up to %n character(s)</source>
        <translation>
            <numerusform>最多 %n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>%1, %2 to %3</source>
        <translation>%1，%2 到 %3</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>its schema could not be read</source>
        <translation>无法读取其架构</translation>
    </message>
    <message>
        <source>the schema allows a choice of forms</source>
        <translation>架构允许多种形式</translation>
    </message>
    <message>
        <source>it nests deeper than a form shows</source>
        <translation>嵌套层级超出表单能显示的深度</translation>
    </message>
    <message>
        <source>its choices are not plain values</source>
        <translation>其选项不是普通值</translation>
    </message>
    <message>
        <source>it is a map of names to values</source>
        <translation>它是名称到值的映射</translation>
    </message>
    <message>
        <source>its items are not of one kind</source>
        <translation>其各项的类型不一致</translation>
    </message>
    <message>
        <source>it is a list of values a form row cannot show</source>
        <translation>它是表单行无法显示的值列表</translation>
    </message>
    <message>
        <source>it may be of several types</source>
        <translation>它可能有多种类型</translation>
    </message>
    <message>
        <source>it names no type</source>
        <translation>它没有指明类型</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>必须是整数</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须是数字</translation>
    </message>
    <message>
        <source>is not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>the tool&apos;s schema is not an object of parameters</source>
        <translation>工具的架构不是参数对象</translation>
    </message>
    <message>
        <source>must be a JSON object of the tool&apos;s parameters</source>
        <translation>必须是包含该工具参数的 JSON 对象</translation>
    </message>
</context>
<context>
    <name>sbx::ToolResult</name>
    <message>
        <source>Its base64 data did not decode.</source>
        <translation>其 base64 数据无法解码。</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>The image could not be decoded.</source>
        <translation>无法解码该图像。</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>Save it to play it.</source>
        <translation>请保存后再播放。</translation>
    </message>
    <message>
        <source>Resource link</source>
        <translation>资源链接</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Content of type “%1”</source>
        <translation>类型为“%1”的内容</translation>
    </message>
    <message numerus="yes">
        <source>%n content item(s)</source>
        <translation>
            <numerusform>%n 个内容项</numerusform>
        </translation>
    </message>
    <message>
        <source>, structured content</source>
        <translation>，结构化内容</translation>
    </message>
    <message>
        <source>Tool error: %1</source>
        <translation>工具错误：%1</translation>
    </message>
</context>
<context>
    <name>sbx::TrafficDock</name>
    <message>
        <source>Traffic inspector</source>
        <translation>流量检查器</translation>
    </message>
    <message>
        <source>Copy as &amp;curl</source>
        <translation>复制为 curl(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;HAR…</source>
        <translation>导出 HAR(&amp;H)…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation>所有沙箱</translation>
    </message>
    <message>
        <source>All methods</source>
        <translation>所有方法</translation>
    </message>
    <message>
        <source>WebSocket</source>
        <translation>WebSocket</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <source>2xx success</source>
        <translation>2xx 成功</translation>
    </message>
    <message>
        <source>3xx redirect</source>
        <translation>3xx 重定向</translation>
    </message>
    <message>
        <source>4xx client error</source>
        <translation>4xx 客户端错误</translation>
    </message>
    <message>
        <source>5xx server error</source>
        <translation>5xx 服务器错误</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Filter: path, status, sandbox…</source>
        <translation>筛选：路径、状态、沙箱…</translation>
    </message>
    <message>
        <source>The selected request as a curl command; credentials come from $SANDBOX_API_KEY, $SANDBOX_JWT or $SANDBOX_TICKET</source>
        <translation>将所选请求复制为 curl 命令；凭据来自 $SANDBOX_API_KEY、$SANDBOX_JWT 或 $SANDBOX_TICKET</translation>
    </message>
    <message>
        <source>Save the entries shown as a HAR 1.2 file (secrets are not in it)</source>
        <translation>将显示的条目保存为 HAR 1.2 文件（其中不含密钥）</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>标头</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>响应</translation>
    </message>
    <message>
        <source>&amp;Traffic inspector</source>
        <translation>流量检查器(&amp;T)</translation>
    </message>
    <message>
        <source>Select an entry to see its headers and bodies.</source>
        <translation>选择一个条目以查看其标头和正文。</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n entries, %2 kept</source>
        <translation>
            <numerusform>%1 / %n 个条目，已保留 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>At most %n entries are kept; headers and bodies only while the inspector is open, %1 at most.</source>
        <translation>
            <numerusform>最多保留 %n 个条目；标头和正文仅在检查器打开时保留，最多 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Copied the request as a curl command. Set SANDBOX_API_KEY, SANDBOX_JWT or SANDBOX_TICKET before you run it.</source>
        <translation>已将请求复制为 curl 命令。运行前请设置 SANDBOX_API_KEY、SANDBOX_JWT 或 SANDBOX_TICKET。</translation>
    </message>
    <message>
        <source>Export HAR</source>
        <translation>导出 HAR</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n entries to %1.</source>
        <translation>
            <numerusform>已将 %n 个条目导出到 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Traffic filter</source>
        <translation>流量筛选</translation>
    </message>
</context>
<context>
    <name>sbx::TrafficFormat</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n frame(s), %2 in 1 s</source>
        <translation>
            <numerusform>%1：%n 帧，1 秒内 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>WebSocket %1 %2</source>
        <translation>WebSocket %1 %2</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>sandbox %1</source>
        <translation>沙箱 %1</translation>
    </message>
    <message>
        <source>WebSocket messages have no headers; see the socket&apos;s handshake.</source>
        <translation>WebSocket 消息没有标头；请查看该套接字的握手。</translation>
    </message>
    <message>
        <source>Headers are kept only while the inspector is open, and within its memory budget.</source>
        <translation>标头仅在检查器打开时、且在其内存预算内保留。</translation>
    </message>
    <message>
        <source>Request headers</source>
        <translation>请求标头</translation>
    </message>
    <message>
        <source>Response headers</source>
        <translation>响应标头</translation>
    </message>
    <message>
        <source>(in flight)</source>
        <translation>（进行中）</translation>
    </message>
    <message>
        <source>(the socket opened; its response headers are not available)</source>
        <translation>（套接字已打开；其响应标头不可用）</translation>
    </message>
    <message numerus="yes">
        <source>%n %1 frame(s), %2 in 1 s. Terminal output and input are summarised per second; their contents are not recorded.</source>
        <translation>
            <numerusform>%n 个 %1 帧，1 秒内 %2。终端输出和输入按秒汇总；不记录其内容。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, streamed: a file&apos;s bytes are counted, never recorded.</source>
        <translation>%1，流式传输：只统计文件的字节数，绝不记录内容。</translation>
    </message>
    <message>
        <source>size unknown</source>
        <translation>大小未知</translation>
    </message>
    <message>
        <source>(no body)</source>
        <translation>（无正文）</translation>
    </message>
    <message>
        <source>%1. Bodies are kept only while the inspector is open, and within its memory budget.</source>
        <translation>%1。正文仅在检查器打开时、且在其内存预算内保留。</translation>
    </message>
    <message>
        <source>… %1 more not kept (the first %2 are shown).</source>
        <translation>… 还有 %1 未保留（显示前 %2）。</translation>
    </message>
    <message>
        <source>%1 of binary data (%2). The first %3:</source>
        <translation>%1 的二进制数据（%2）。前 %3：</translation>
    </message>
</context>
<context>
    <name>sbx::TrafficModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>已接收</translation>
    </message>
</context>
<context>
    <name>sbx::TransferPanel</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the selected transfer; nothing half-written stays</source>
        <translation>停止所选传输；不会留下写了一半的文件</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation>清除已完成</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 个进行中</translation>
    </message>
    <message>
        <source>%1 queued</source>
        <translation>%1 个排队中</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 个失败</translation>
    </message>
    <message>
        <source>&lt;b&gt;Transfers&lt;/b&gt;  </source>
        <translation>&lt;b&gt;传输&lt;/b&gt;  </translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation>传输</translation>
    </message>
</context>
<context>
    <name>sbx::TransferQueueModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>copy %1 with sudo for the download</source>
        <translation>使用 sudo 复制 %1 以供下载</translation>
    </message>
    <message>
        <source>remove the copy made for the download</source>
        <translation>移除为下载而制作的副本</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>剩余时间</translation>
    </message>
</context>
<context>
    <name>sbx::UploadJob</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Upload to %1 failed: %2</source>
        <translation>上传到 %1 失败：%2</translation>
    </message>
    <message>
        <source>Upload to %1: the sandbox stored %2 bytes of %3</source>
        <translation>上传到 %1：沙箱只存储了 %3 字节中的 %2 字节</translation>
    </message>
</context>
<context>
    <name>sbx::UserPrompts</name>
    <message>
        <source>Apply to all</source>
        <translation>全部应用</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
</context>
<context>
    <name>sbx::WebEntriesMenu</name>
    <message>
        <source>Open in &amp;Browser</source>
        <translation>在浏览器中打开(&amp;B)</translation>
    </message>
    <message>
        <source>Open in Browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <source>Open a page the sandbox serves (desktop, editor, Jupyter, API docs, terminal) in your web browser</source>
        <translation>在网页浏览器中打开沙箱提供的页面（桌面、编辑器、Jupyter、API 文档、终端）</translation>
    </message>
    <message>
        <source>Could not check the web pages of %1: %2</source>
        <translation>无法检查 %1 的网页：%2</translation>
    </message>
    <message>
        <source>No sandbox selected</source>
        <translation>未选择沙箱</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Could not check: %1</source>
        <translation>无法检查：%1</translation>
    </message>
    <message>
        <source>Open %1 in your web browser</source>
        <translation>在网页浏览器中打开 %1</translation>
    </message>
    <message>
        <source>No web pages</source>
        <translation>没有网页</translation>
    </message>
    <message>
        <source>Check &amp;again</source>
        <translation>重新检查(&amp;A)</translation>
    </message>
    <message>
        <source>Ask the sandbox again which pages it serves</source>
        <translation>重新询问沙箱提供哪些页面</translation>
    </message>
</context>
<context>
    <name>sbx::WebEntry</name>
    <message>
        <source>VNC desktop</source>
        <translation>VNC 桌面</translation>
    </message>
    <message>
        <source>code-server (VS Code)</source>
        <translation>code-server（VS Code）</translation>
    </message>
    <message>
        <source>JupyterLab</source>
        <translation>JupyterLab</translation>
    </message>
    <message>
        <source>API docs</source>
        <translation>API 文档</translation>
    </message>
    <message>
        <source>Web terminal</source>
        <translation>网页终端</translation>
    </message>
</context>
<context>
    <name>sbx::WebEntryOpener</name>
    <message>
        <source>The sandbox is no longer listed.</source>
        <translation>该沙箱已不在列表中。</translation>
    </message>
    <message>
        <source>Could not open %1 of %2: no ticket for the page (%3)</source>
        <translation>无法打开 %2 的 %1：未能获取该页面的票据（%3）</translation>
    </message>
</context>
<context>
    <name>sbx::WebEntryProbeJob</name>
    <message>
        <source>The sandbox was closed</source>
        <translation>沙箱已关闭</translation>
    </message>
</context>
</TS>
