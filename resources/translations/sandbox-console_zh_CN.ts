<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ConsoleOptions</name>
    <message>
        <source>the environment variable %1 (--api-key-env)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineApi</name>
    <message>
        <source>No answer from the container engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the container engine answered HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineJob</name>
    <message>
        <source>The container engine was closed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineSandboxes</name>
    <message>
        <source>Choose an image for the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be a container name: use letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;, starting with a letter or digit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot make a key pair for the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the container and its anonymous volumes are removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Container: a Docker or podman engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the image to start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A container name starts with a letter or digit and holds only letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorRow</name>
    <message>
        <source>Retry with sudo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the same operation again as root through the sandbox&apos;s sudo</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilesTab</name>
    <message>
        <source>/path/in/the/sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a folder and press Enter (Ctrl+L)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox user&apos;s home folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox&apos;s workspace folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List this folder again (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete key; asks first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload here…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete these from the sandbox? This cannot be undone.

</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name already taken</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” already exists there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply to all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download to</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Job</name>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LlmsTxtView</name>
    <message>
        <source>Plain text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading /llms.txt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find in llms.txt (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the file exactly as the sandbox serves it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read /llms.txt: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LocalLogSource</name>
    <message>
        <source>The sandbox was deleted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LocalSandboxes</name>
    <message>
        <source>its workspace folder is deleted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its folder is kept: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Local: sandbox-server on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an existing folder, or let the console create one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LogView</name>
    <message>
        <source>&amp;Follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the newest lines in view (End)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Wrap lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox is gone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit Sandbox Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) open in a viewer have changes that are not saved. Quitting loses them.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Discard and quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n transfer(s) have not finished. Quitting cancels them.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n terminal(s) open in sandboxes that stop with the console. Quitting stops them and ends their shells.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NewSandboxDialog</name>
    <message>
        <source>Runs as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider here can create a sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How often each sandbox&apos;s status is checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status &amp;poll interval:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each check is one GET /v1/sandbox per running sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lines each terminal keeps above the screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Scrollback:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploads and downloads that run at once; the rest wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Transfers at once:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QMessageBox</name>
    <message>
        <source>&amp;Yes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RemoteFileOperations</name>
    <message>
        <source>%1 is %2: the viewer opens files up to %3. Use Download… instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>create the folders for the upload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>move the upload into %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder: drag out files only, or use Download… for folders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is %2: drags to the desktop carry files under %3. Use Download… for larger files.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxActions</name>
    <message>
        <source>API key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox “%1” accepts this API key (header X-AIO-API-Key or Bearer). The console keeps it in the keychain and uses it itself; this is the only time it is shown.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxHook</name>
    <message>
        <source>The timeout must be a number of seconds</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxProvider</name>
    <message>
        <source>forgotten here; the sandbox itself keeps running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the sandbox a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sandboxes cannot be created from the console</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxWorkspace</name>
    <message>
        <source>Retry now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Authentication failed.&lt;/b&gt; </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Unreachable.&lt;/b&gt; </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Paused.&lt;/b&gt; Every process in this sandbox is frozen; requests wait until it is resumed (Resume in the sandbox list). </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopping.&lt;/b&gt; Its shutdown hooks run before it exits. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped.&lt;/b&gt; Start it from the sandbox list. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1.&lt;/b&gt; </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>%1 refused the API key from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 failed: %3 (HTTP %4)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SudoListFilesJob</name>
    <message>
        <source>Listing %1 with sudo: the command printed no listing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing %1 with sudo: the listing is garbled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list %1 with sudo</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TerminalFindBar</name>
    <message>
        <source>Find in scrollback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TerminalPane</name>
    <message>
        <source>New session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection lost: reconnecting to the session…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TerminalTab</name>
    <message>
        <source>Split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a new shell beside this one (%1); the arrow offers a second view of this shell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A second view of this shell: what you type in either shows in both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new shell beside this one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TerminalView</name>
    <message>
        <source>Paste several lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The text holds %n lines; a shell runs each as a command as soon as it is pasted. Paste it?</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TransferPanel</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the selected transfer; nothing half-written stays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Transfers&lt;/b&gt;  </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TransferQueueModel</name>
    <message>
        <source>copy %1 with sudo for the download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>remove the copy made for the download</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserPrompts</name>
    <message>
        <source>Apply to all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
