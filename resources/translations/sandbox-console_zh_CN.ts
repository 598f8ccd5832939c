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
    <name>SandboxHook</name>
    <message>
        <source>The timeout must be a number of seconds</source>
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
</TS>
